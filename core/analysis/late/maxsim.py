"""Exact MaxSim over a corpus of token vectors, fast: one matrix product of a block of queries' tokens against every
corpus token (no padding to the longest text, as `model.similarity` pads), each document's best match per query token
by a segment max over its rows (`np.maximum.reduceat`), and those maxima summed per query (divided by the query's
token count for MeanMaxSim). Scores equal sentence-transformers' `maxsim` / `mean_maxsim` to float32 rounding, a
document with no token scoring as it scores one there."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial

import numpy as np

from core.analysis.search import DEFAULT_BUDGET, Hits, top_k
from core.encoding.late.matrix import TokenMatrix

EMPTY_DOCUMENT_SCORE = -1e9  # sentence-transformers' score of a document without a scoreable token
Rows = tuple[np.ndarray, np.ndarray]  # token vectors and the offsets of each text's rows in them, from 0


def _runs(offsets: np.ndarray, tokens: int) -> list[tuple[int, int]]:
    """Consecutive texts [a, b) holding at most `tokens` rows together (a longer text alone)."""
    runs, start, count = [], 0, len(offsets) - 1
    while start < count:
        stop = int(np.searchsorted(offsets, offsets[start] + tokens, side="right")) - 1
        stop = min(max(stop, start + 1), count)
        runs.append((start, stop))
        start = stop
    return runs


def maxsim_scores(queries: Rows, documents: Rows, *, mean: bool = False, budget: int = DEFAULT_BUDGET) -> np.ndarray:
    """(queries, documents) float32 MaxSim (MeanMaxSim with `mean`); each product of query tokens against document
    tokens stays within `budget` bytes."""
    q_vectors, q_offsets = queries
    d_vectors, d_offsets = documents
    q_lengths, d_lengths = np.diff(q_offsets), np.diff(d_offsets)
    out = np.zeros((len(q_lengths), len(d_lengths)), np.float32)
    cells = max(budget // 4, 1)
    for qa, qb in _runs(q_offsets, max(int(np.sqrt(cells)), 1)):
        rows = q_vectors[q_offsets[qa]:q_offsets[qb]]
        asked = np.flatnonzero(q_lengths[qa:qb]) + qa  # a query without a token scores 0
        if not len(asked):
            continue
        for da, db in _runs(d_offsets, max(cells // max(len(rows), 1), 1)):
            filled = np.flatnonzero(d_lengths[da:db]) + da
            if not len(filled):
                continue
            base = d_offsets[da]
            products = rows @ np.asarray(d_vectors[base:d_offsets[db]], np.float32).T
            best = np.maximum.reduceat(products, d_offsets[filled] - base, axis=1)
            out[np.ix_(asked, filled)] = np.add.reduceat(best, q_offsets[asked] - q_offsets[qa], axis=0)
    out[:, d_lengths == 0] = EMPTY_DOCUMENT_SCORE
    if mean:
        out /= np.maximum(q_lengths, 1).astype(np.float32)[:, None]
    return out


def matrix_scores(queries: TokenMatrix, documents: TokenMatrix, *, mean: bool = False) -> np.ndarray:
    """`maxsim_scores` of two TokenMatrix blocks: how a search scores one block of queries against a block of the
    corpus."""
    return maxsim_scores(queries.rows(), documents.rows(), mean=mean)


def maxsim_top_k(queries: TokenMatrix, corpus: TokenMatrix, k: int, *, similarity: str = "maxsim",
                 exclude: Sequence[Collection[int]] | None = None) -> Hits:
    """Each query's `k` best documents by exact MaxSim (or MeanMaxSim), best first, ties to the lower index;
    `exclude[q]` lists documents never returned for query q."""
    return top_k(queries, corpus, k, exclude=exclude,
                 score=partial(matrix_scores, mean=similarity == "meanmaxsim"))
