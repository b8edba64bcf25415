"""How far a model moves from where it started while it trains, and where it ends up.

During a run, a TrainerCallback encodes a probe set (the first STS-B dev pairs' sentences) with the model in
training at the start and at a few checkpoints, and measures each against the start: linear CKA, neighbour
overlap@10, and the task metric (the Spearman correlation of the pairs' cosines with their gold scores). Only
these numbers are kept: no checkpoint of the model is saved. After the run, the base and the fine-tuned model are
compared layer by layer (CKA) and text by text (overlap) on the same sentences."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import spearmanr

from core.analysis.agreement import linear_cka, neighbour_overlap
from core.analysis.similarity import paired_cosine
from core.data.stsb import load_stsb
from core.encoding.encoder import encode
from core.evaluation.compared_models import layer_cka
from core.models.loading import LoadedModel
from core.settings import Settings

PROBE_PAIRS = 200  # STS-B dev pairs whose sentences are encoded at each checkpoint (about 400 sentences)
CHECKPOINTS = 8  # spread evenly over a run, besides the start
NEIGHBOURS = 10


@dataclass(frozen=True)
class Probe:
    """Distinct sentences, and the pairs among them (rows `first`, `second`) with their gold scores."""

    texts: list[str]
    first: np.ndarray
    second: np.ndarray
    gold: np.ndarray

    def spearman(self, vectors: np.ndarray) -> float:
        return float(spearmanr(paired_cosine(vectors[self.first], vectors[self.second]), self.gold).statistic)


def stsb_probe(pairs: int | None = None) -> Probe:
    chosen = load_stsb("dev")[:PROBE_PAIRS if pairs is None else pairs]
    texts = list(dict.fromkeys(text for pair in chosen for text in (pair.sentence1, pair.sentence2)))
    row = {text: i for i, text in enumerate(texts)}
    return Probe(texts, np.array([row[p.sentence1] for p in chosen]), np.array([row[p.sentence2] for p in chosen]),
                 np.array([p.score for p in chosen], dtype=np.float64))


@dataclass(frozen=True)
class DriftPoint:
    """At a training step: CKA and overlap@10 of the probe's vectors with the start's, and the probe's Spearman."""

    step: int
    cka: float
    overlap: float
    spearman: float


def drift_point(step: int, start: np.ndarray, now: np.ndarray, probe: Probe) -> DriftPoint:
    overlap = neighbour_overlap(start, now, k=min(NEIGHBOURS, len(start) - 1)).mean
    return DriftPoint(step, linear_cka(start, now), overlap, probe.spearman(now))


def checkpoint_steps(total: int, checkpoints: int = CHECKPOINTS) -> set[int]:
    """`checkpoints` steps spread evenly from the first to the last (every step of a shorter run)."""
    return {int(np.ceil(total * i / checkpoints)) for i in range(1, checkpoints + 1)} - {0}


def drift_callback(probe: Probe, record: Callable[[DriftPoint], None], *, checkpoints: int = CHECKPOINTS) -> Any:
    """A TrainerCallback that records a DriftPoint at the start, at the checkpoint steps and at the step a run stops
    on, from the sentence vectors of the model in training (its encode, which the trainer's next step puts back into
    training mode)."""
    from transformers import TrainerCallback

    def vectors(model) -> np.ndarray:
        return np.asarray(model.encode(probe.texts, batch_size=64, convert_to_numpy=True, show_progress_bar=False))

    class DriftCallback(TrainerCallback):
        start: np.ndarray
        steps: set[int]

        def on_train_begin(self, args, state, control, model=None, **kwargs):
            self.start = vectors(model)
            self.steps = checkpoint_steps(state.max_steps, checkpoints)
            record(drift_point(0, self.start, self.start, probe))

        def on_step_end(self, args, state, control, model=None, **kwargs):
            if state.global_step in self.steps or control.should_training_stop:
                record(drift_point(state.global_step, self.start, vectors(model), probe))

    return DriftCallback()


def before_after(base: LoadedModel, tuned: LoadedModel, texts: list[str]) -> dict[str, Any]:
    """The base against the fine-tuned model on `texts`: CKA of every layer against every layer (base's as rows),
    and each text's neighbours before and after (as a JSON-ready record for the model's card)."""
    layers = layer_cka((base, Settings(model_id=base.model_id)), (tuned, Settings(model_id=tuned.model_id)), texts)
    overlap = neighbour_overlap(encode(base, texts).vectors, encode(tuned, texts).vectors,
                                k=min(NEIGHBOURS, len(texts) - 1))
    return {"texts": texts, "cka_layers": [[None if np.isnan(v) else float(v) for v in row] for row in layers],
            "overlap": overlap.to_json()}
