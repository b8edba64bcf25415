"""Does a stored index still match its model (core.analysis.index_check): the model's fresh vectors of a sample of
the stored texts, under the chosen settings and, for rows they leave unexplained, under each other pooling the kind
lets be chosen."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.analysis.index_check import (
    MIN_SAMPLE,
    OTHER,
    SAME_WAY,
    SAMPLE,
    IndexCheck,
    first_looks,
    judged,
    row_cosines,
    sampled_rows,
)
from core.analysis.statistics import SEED
from core.evaluation.stored import store_refusal
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.models.pooling import CHOICES
from core.settings import Settings


def check_index(model: LoadedModel, texts: Sequence[str], stored: np.ndarray, settings: Settings, *,
                sample: int = SAMPLE, seed: int = SEED) -> IndexCheck:
    """The stored vectors of `texts` (one row each) set against `model`'s vectors of a seeded sample of them, under
    `settings`; ValueError in one sentence where the model's kind gives no one dense vector a text, or the sample is
    too small."""
    refused = store_refusal(model)
    if refused is not None:
        raise ValueError(refused)
    kind = kind_of(model)
    if len(texts) != len(stored):
        raise ValueError(f"There are {len(stored):,} stored vectors but {len(texts):,} texts; give one text a vector.")
    rows, skipped = sampled_rows(texts, limit=sample, seed=seed)
    if len(rows) < MIN_SAMPLE:
        raise ValueError(f"The store holds {len(rows)} distinct non-blank text(s); checking it needs at least "
                         f"{MIN_SAMPLE}.")
    chosen = [texts[row] for row in rows]
    vectors = np.asarray(stored[rows], dtype=np.float32)
    fresh = np.asarray(kind.text_vectors(model, chosen, settings), dtype=np.float32)
    looks, cosines = first_looks(vectors, fresh)
    if kind.applies.pooling:
        for pooling in CHOICES:
            unexplained = np.flatnonzero(looks == OTHER)
            if not len(unexplained) or settings.pooling == pooling:
                continue
            pooled = np.asarray(kind.text_vectors(model, [chosen[i] for i in unexplained],
                                                  settings.with_(pooling=pooling)), dtype=np.float32)
            if pooled.shape[1] < vectors.shape[1]:
                continue
            alike = row_cosines(vectors[unexplained], pooled[:, :vectors.shape[1]]) >= SAME_WAY
            looks[unexplained[alike]] = f"pooling:{pooling}"
    return judged(vectors, fresh, looks, cosines, rows, skipped)
