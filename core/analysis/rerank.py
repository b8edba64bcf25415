"""Retrieve, then rerank: a first stage's top N texts for a query read again by a cross-encoder, which scores each
(query, text) pair with both texts in view and reorders them. Every hit keeps its first-stage rank and score, so what
the reranker changed shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.encoding.encoder import Progress
from core.models.reranker import LoadedReranker

BATCH = 32
PAIRS_PER_STEP = 4 * BATCH  # pairs scored between two progress reports


def pair_scores(reranker: LoadedReranker, pairs: Sequence[tuple[str, str]], *, batch_size: int = BATCH,
                progress: Progress | None = None) -> np.ndarray:
    """The reranker's score of each (query, text) pair, as CrossEncoder.predict gives it (its activation applied),
    float64."""
    scores = []
    for start in range(0, len(pairs), PAIRS_PER_STEP):
        chunk = [list(pair) for pair in pairs[start:start + PAIRS_PER_STEP]]
        scores.append(np.asarray(reranker.cross.predict(chunk, batch_size=batch_size, convert_to_numpy=True,
                                                        show_progress_bar=False), dtype=np.float64).reshape(-1))
        if progress is not None:
            progress(min(start + PAIRS_PER_STEP, len(pairs)), len(pairs))
    return np.concatenate(scores) if scores else np.zeros(0)


def reranked_order(scores: np.ndarray) -> np.ndarray:
    """Positions by the reranker's score, best first; a tie keeps the first stage's order (as CrossEncoder.rank's
    stable sort does)."""
    return np.argsort(-scores, kind="stable")


@dataclass(frozen=True)
class Reranked:
    """A query's first-stage top N reordered: `table` has rank, first-stage rank, move (places gained), reranker
    score, first-stage score, index (in the corpus) and text."""

    table: pd.DataFrame
    first_stage: str


def rerank_hits(reranker: LoadedReranker, query: str, indices: Sequence[int], first_scores: Sequence[float],
                corpus: Sequence[str], *, first_stage: str, progress: Progress | None = None) -> Reranked:
    """The first stage's hits (corpus `indices`, best first, with their scores) reordered by the reranker."""
    found, first = np.asarray(indices, dtype=np.int64), np.asarray(first_scores, dtype=np.float64)
    scores = pair_scores(reranker, [(query, corpus[i]) for i in found], progress=progress)
    order = reranked_order(scores)
    ranks = np.arange(1, len(order) + 1)
    table = pd.DataFrame({"rank": ranks, "first-stage rank": order + 1, "move": order + 1 - ranks,
                          "reranker score": scores[order], "first-stage score": first[order],
                          "index": found[order], "text": [corpus[i] for i in found[order]]})
    return Reranked(table, first_stage)
