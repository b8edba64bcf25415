"""Hybrid search: ranked lists fused by reciprocal rank fusion (Cormack et al. 2009), as sentence-transformers'
ReciprocalRankFusionEvaluator fuses a dense and a sparse retriever's lists: a text scores the sum of 1 / (k + rank)
over the lists that hold it, and texts of equal score keep the order in which they first appear (the first list,
then the texts only the second holds)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

RRF_K = 60  # the formula's constant, as in the paper and the evaluator
FUSE_DEPTH = 100  # texts taken from each list before fusing


def fuse(lists: Sequence[Sequence[int] | np.ndarray], *, k: int = RRF_K) -> tuple[np.ndarray, np.ndarray]:
    """The fused list of corpus indices, best first, and each one's RRF score."""
    scores: dict[int, float] = {}
    for ranked in lists:
        for rank, doc in enumerate(ranked, start=1):
            scores[int(doc)] = scores.get(int(doc), 0.0) + 1.0 / (k + rank)
    order = sorted(scores, key=scores.__getitem__, reverse=True)  # stable: first appearance breaks ties
    return np.array(order, dtype=np.int64), np.array([scores[doc] for doc in order], dtype=np.float64)


def fuse_rows(first: Sequence[Sequence[int] | np.ndarray], second: Sequence[Sequence[int] | np.ndarray], depth: int,
              *, k: int = RRF_K) -> tuple[np.ndarray, np.ndarray]:
    """Query by query, the fusion of two lists of corpus indices, cut to `depth`; a fused list shorter than `depth`
    is padded with -1 (index) and -inf (score)."""
    indices = np.full((len(first), depth), -1, np.int64)
    scores = np.full((len(first), depth), -np.inf)
    for q in range(len(first)):
        fused, fused_scores = fuse([first[q], second[q]], k=k)
        indices[q, :min(depth, len(fused))] = fused[:depth]
        scores[q, :min(depth, len(fused))] = fused_scores[:depth]
    return indices, scores
