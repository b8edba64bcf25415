"""Top-k cosine search over a corpus, in blocks under a memory budget (never a full float64 score matrix).

Rows are expected at unit length (`unit_rows`), so a dot product is the cosine. Queries and corpus may
be dense float32 arrays or scipy sparse matrices (TF-IDF, bag-of-words). Ties rank the lower corpus
index first, as sentence-transformers' InformationRetrievalEvaluator does.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

Matrix = np.ndarray | sp.spmatrix | sp.sparray
DEFAULT_BUDGET = 64 * 2**20  # bytes for one block of float32 scores


@dataclass
class Hits:
    """Corpus indices and cosine scores per query, best first; (queries, min(k, corpus)) each."""

    indices: np.ndarray
    scores: np.ndarray


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """float32 rows scaled to length 1 (all-zero rows stay zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, np.float32(1e-12))


def _blocks(n_queries: int, n_corpus: int, budget: int) -> Iterator[tuple[slice, slice]]:
    """Query and corpus slices whose score block fits in `budget` bytes of float32."""
    cells = max(budget // 4, 1)
    corpus_step = min(max(n_corpus, 1), cells)
    query_step = max(cells // corpus_step, 1)
    for q in range(0, n_queries, query_step):
        for c in range(0, n_corpus, corpus_step):
            yield slice(q, min(q + query_step, n_queries)), slice(c, min(c + corpus_step, n_corpus))


def _scores(queries: Matrix, corpus: Matrix, qs: slice, cs: slice) -> np.ndarray:
    block = queries[qs] @ corpus[cs].T
    if sp.issparse(block):
        block = block.toarray()
    return np.asarray(block, dtype=np.float32)


def _mask(block: np.ndarray, qs: slice, cs: slice, exclude: Sequence[Collection[int]] | None) -> None:
    if exclude is None:
        return
    for row, q in enumerate(range(qs.start, qs.stop)):
        for c in exclude[q]:
            if cs.start <= c < cs.stop:
                block[row, c - cs.start] = -np.inf


def _top_in_row(row: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k best scores of one row; ties at the cut keep the lowest indices."""
    if k >= row.size:
        return np.arange(row.size)
    part = np.argpartition(-row, k - 1)[:k]
    cut = row[part].min()
    if np.count_nonzero(row >= cut) == k:
        return part
    above = np.flatnonzero(row > cut)
    return np.concatenate([above, np.flatnonzero(row == cut)[:k - above.size]])


def top_k(queries: Matrix, corpus: Matrix, k: int, *, exclude: Sequence[Collection[int]] | None = None,
          budget: int = DEFAULT_BUDGET) -> Hits:
    """The k best corpus rows for each query; `exclude[q]` lists corpus indices never returned for query q."""
    n_queries, n_corpus = queries.shape[0], corpus.shape[0]
    k = min(k, n_corpus - (max((len(e) for e in exclude), default=0) if exclude is not None else 0))
    k = max(k, 0)
    best_idx = [np.zeros(0, np.int64) for _ in range(n_queries)]
    best_scores = [np.zeros(0, np.float32) for _ in range(n_queries)]
    for qs, cs in _blocks(n_queries, n_corpus, budget):
        block = _scores(queries, corpus, qs, cs)
        _mask(block, qs, cs, exclude)
        for row, q in enumerate(range(qs.start, qs.stop)):
            local = _top_in_row(block[row], k)
            idx = np.concatenate([best_idx[q], local + cs.start])
            scores = np.concatenate([best_scores[q], block[row, local]])
            order = np.lexsort((idx, -scores))[:k]
            best_idx[q], best_scores[q] = idx[order], scores[order]
    if n_queries == 0:
        return Hits(np.zeros((0, k), np.int64), np.zeros((0, k), np.float32))
    return Hits(np.stack(best_idx), np.stack(best_scores))


@dataclass
class BestRelevant:
    """Per query: 1-based rank in the whole corpus of its best-scored relevant text (0 when it has none in
    the corpus), that text's corpus index (-1) and its score (nan)."""

    rank: np.ndarray
    index: np.ndarray
    score: np.ndarray


def best_relevant(queries: Matrix, corpus: Matrix, relevant: Sequence[Collection[int]], *,
                  exclude: Sequence[Collection[int]] | None = None, budget: int = DEFAULT_BUDGET) -> BestRelevant:
    """Two passes over the same blocks as `top_k` (so scores agree to the bit): find each query's best
    relevant text, then count the texts that rank before it."""
    n_queries, n_corpus = queries.shape[0], corpus.shape[0]
    target = np.full(n_queries, -np.inf, np.float32)
    target_idx = np.full(n_queries, -1, np.int64)
    wanted = [np.array(sorted(set(relevant[q]) - set(exclude[q] if exclude is not None else ())), np.int64)
              for q in range(n_queries)]
    for qs, cs in _blocks(n_queries, n_corpus, budget):
        block = _scores(queries, corpus, qs, cs)
        for row, q in enumerate(range(qs.start, qs.stop)):
            docs = wanted[q][(wanted[q] >= cs.start) & (wanted[q] < cs.stop)]
            if docs.size:
                scores = block[row, docs - cs.start]
                best = int(np.argmax(scores))  # docs ascend, so argmax keeps the lowest index of a tie
                if scores[best] > target[q]:
                    target[q], target_idx[q] = scores[best], docs[best]
    ahead = np.zeros(n_queries, np.int64)
    for qs, cs in _blocks(n_queries, n_corpus, budget):
        block = _scores(queries, corpus, qs, cs)
        _mask(block, qs, cs, exclude)
        goal = target[qs, None]
        columns = np.arange(cs.start, cs.stop)
        beats = (block > goal) | ((block == goal) & (columns < target_idx[qs, None]))
        ahead[qs] += beats.sum(axis=1)
    found = target_idx >= 0
    return BestRelevant(np.where(found, ahead + 1, 0), target_idx, np.where(found, target, np.nan))
