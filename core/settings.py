"""The one options type that feeds the encoder, the pages and the command line."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from core.models.pooling import CHOICES as POOLINGS

Pooling = str  # "default" or a name in core.models.pooling.MODES
Role = Literal["query", "document", "text"]  # what a text is to the model: its prompt and, with a Router, its route
DEVICES: tuple[str, ...] = ("auto", "cpu", "cuda", "mps")
DEFAULT_MODEL = "all-MiniLM-L6-v2"


@dataclass(frozen=True)
class Settings:
    """What turns a text into a vector. `layer=None` means the last layer; 0 is the embedding layer. `prompt` is put
    before each text (pages set it from the model's query or document prompt); `truncate_dim` keeps the first
    dimensions (Matryoshka), as sentence-transformers' `truncate_dim`."""

    model_id: str = DEFAULT_MODEL
    pooling: Pooling = "default"
    layer: int | None = None
    normalize: bool = False
    max_length: int | None = None
    device: str = "auto"
    truncate_dim: int | None = None
    prompt: str = ""
    role: Role = "text"

    def __post_init__(self) -> None:
        if self.pooling not in POOLINGS:
            raise ValueError(f"Unknown pooling {self.pooling!r}; choose one of {', '.join(POOLINGS)}.")
        if self.layer is not None and self.layer < 0:
            raise ValueError(f"Layer must be 0 or more, not {self.layer}.")
        if self.max_length is not None and self.max_length < 2:
            raise ValueError(f"Max length must be at least 2 tokens, not {self.max_length}.")
        if self.truncate_dim is not None and self.truncate_dim < 1:
            raise ValueError(f"Keep at least 1 dimension, not {self.truncate_dim}.")
        if self.device not in DEVICES:
            raise ValueError(f"Unknown device {self.device!r}; choose one of {', '.join(DEVICES)}.")

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def layer_used(layer: int | None, num_layers: int) -> int:
    """The layer a `Settings.layer` means in a model of `num_layers` layers: `None` is the last."""
    return num_layers if layer is None else layer


def layer_setting(layer: int, num_layers: int) -> int | None:
    """The reverse of `layer_used`: the last layer is stored as `None`, so it stays the last in any model."""
    return None if layer == num_layers else layer


def carried_layer(layer: int, previous_last: int, last: int) -> int:
    """A chosen layer after the model changes from `previous_last` to `last` layers: kept where the new model
    has it, except that "the last layer" stays the last."""
    return last if layer > last or layer == previous_last != last else layer
