"""What a training run is asked for, and the error that refuses it: fine-tuning's TrainOptions with its defaults, and
distillation's PCA dimensions. It imports nothing, so that building the command line's parser (whose defaults these
are) loads no training library."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PCA_DIMS = 256  # dimensions a distilled static model keeps


class FinetuneError(ValueError):
    """A run that cannot start or finish; the message is one sentence with the way forward."""


@dataclass(frozen=True)
class TrainOptions:
    """Defaults keep a run of all-MiniLM-L6-v2 on STS-B under five minutes on a 2-core CPU."""

    epochs: int = 1
    batch_size: int = 16
    learning_rate: float = 2e-5
    warmup_ratio: float = 0.1
    max_steps: int | None = 40
    seed: int = 42

    def __post_init__(self) -> None:
        if not self.learning_rate > 0:
            raise FinetuneError(f"The learning rate must be above 0, not {self.learning_rate:g}; "
                                "try 2e-5 for a trained model or 1e-4 for untrained-bert.")
        if self.epochs < 1:
            raise FinetuneError(f"Epochs must be 1 or more, not {self.epochs}.")
        if self.batch_size < 2:
            raise FinetuneError(f"The batch size must be 2 or more, not {self.batch_size}.")
        if not 0 <= self.warmup_ratio < 1:
            raise FinetuneError(f"Warm-up is a share of the steps from 0 to below 1, not {self.warmup_ratio:g}.")
        if self.max_steps is not None and self.max_steps < 1:
            raise FinetuneError(f"Max steps must be 1 or more (or none), not {self.max_steps}.")
