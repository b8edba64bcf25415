"""Late interaction past exact search, as ColBERT's first stage: a FAISS HNSW graph of every corpus token (built as
`vector_index` builds a dense one) finds each query token's nearest document tokens, their documents are the
candidates, and exact MaxSim ranks the candidates alone. The index carries its recall@10 against exact MaxSim,
measured when it is built on sampled texts of the corpus used as queries, with the tokens fetched per query token
raised step by step (NEIGHBOUR_STEPS) until it reaches TARGET_RECALL. Up to EXACT_UP_TO_TOKENS corpus tokens, search
is exact."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from core.analysis.index_store import read_graph, write_graph
from core.analysis.late.maxsim import maxsim_scores, maxsim_top_k
from core.analysis.search import Hits
from core.analysis.vector_index import TARGET_RECALL, IndexParams, Progress, hnsw_graph
from core.encoding.late.matrix import TokenMatrix

EXACT_UP_TO_TOKENS = 1_000_000  # exact MaxSim reads every corpus token per query token: ~0.3 s a query here
NEIGHBOUR_STEPS = (16, 32, 64, 128, 256)  # document tokens fetched per query token
RECALL_QUERIES = 100  # sampled texts of the corpus whose 10 best others the candidates must hold
VERSION = 1
PARAMS = IndexParams("hnsw")  # the dense index's graph parameters (M 32, efConstruction 64)


@dataclass
class LateIndex:
    """`graph` is None for exact MaxSim over `corpus`; else the HNSW graph of its tokens, searched for `neighbours`
    document tokens per query token."""

    corpus: TokenMatrix
    similarity: str = "maxsim"
    graph: Any = None
    neighbours: int = 0
    recall_at_10: float = 1.0

    def candidates(self, queries: TokenMatrix) -> list[np.ndarray]:
        """Each query's candidate documents: those holding one of its tokens' nearest document tokens."""
        vectors, offsets = queries.rows()
        if not len(vectors):
            return [np.zeros(0, np.int64) for _ in range(len(queries))]
        self.graph.hnsw.efSearch = max(PARAMS.ef_search, self.neighbours)
        _, found = self.graph.search(np.ascontiguousarray(vectors, np.float32), self.neighbours)
        owner = np.searchsorted(self.corpus.offsets, found, side="right") - 1
        owner[found < 0] = -1
        return [np.unique(part[part >= 0]) for part in (owner[a:b] for a, b in zip(offsets[:-1], offsets[1:]))]

    def search(self, queries: TokenMatrix, k: int, *, exclude: Sequence[Collection[int]] | None = None) -> Hits:
        """Each query's `k` best documents, best first (ties to the lower index); past the exact range, from its
        candidates alone, a row padded with -1 (score -inf) where fewer were found."""
        if self.graph is None:
            return maxsim_top_k(queries, self.corpus, k, similarity=self.similarity, exclude=exclude)
        with threadpool_limits(1):  # small products: waking BLAS's and OpenMP's threads cost more than they add
            return self._rescored(queries, k, exclude)

    def _rescored(self, queries: TokenMatrix, k: int, exclude: Sequence[Collection[int]] | None) -> Hits:
        k = min(k, len(self.corpus))
        indices, scores = np.full((len(queries), k), -1, np.int64), np.full((len(queries), k), -np.inf, np.float32)
        for q, found in enumerate(self.candidates(queries)):
            if exclude is not None:
                found = np.setdiff1d(found, np.fromiter(exclude[q], np.int64, len(exclude[q])))
            rated = maxsim_scores(queries[q:q + 1].rows(), self.corpus.gathered(found),
                                  mean=self.similarity == "meanmaxsim")[0]
            order = np.lexsort((found, -rated))[:k]
            indices[q, :len(order)], scores[q, :len(order)] = found[order], rated[order]
        return Hits(indices, scores)

    @property
    def caption(self) -> str:
        tokens = f"{self.corpus.token_count:,} token vectors of {len(self.corpus):,} texts"
        if self.graph is None:
            return f"exact MaxSim over {tokens}"
        return (f"candidates from a FAISS HNSW graph of {tokens} ({self.neighbours} nearest document tokens per query "
                f"token), then exact MaxSim on them; recall@10 against exact MaxSim {self.recall_at_10:.3f}, measured "
                f"at build time on {RECALL_QUERIES} sampled texts used as queries")


def measured_recall(index: LateIndex, *, queries: int = RECALL_QUERIES, seed: int = 0) -> float:
    """Mean share of each sampled text's 10 best other texts (by exact MaxSim, the text used as a query) that the
    index also returns (texts with a token are sampled)."""
    corpus = index.corpus
    filled = np.flatnonzero(corpus.lengths)  # a text without a token asks nothing
    rows = np.sort(np.random.default_rng(seed).choice(filled, min(queries, len(filled)), replace=False))
    asked = TokenMatrix.bare(*corpus.gathered(rows))
    exclude = [{int(row)} for row in rows]
    exact = maxsim_top_k(asked, corpus, 10, similarity=index.similarity, exclude=exclude)
    found = index.search(asked, 10, exclude=exclude)
    return float(np.mean([len(set(a) & set(b)) / max(len(a), 1) for a, b in zip(exact.indices, found.indices)]))


def searched_exactly(corpus: TokenMatrix, exact_up_to: int | None = None) -> bool:
    """Whether the corpus is small enough for exact MaxSim (`exact_up_to` tokens, EXACT_UP_TO_TOKENS by default)."""
    return corpus.token_count <= (EXACT_UP_TO_TOKENS if exact_up_to is None else exact_up_to)


def build_late_index(corpus: TokenMatrix, similarity: str = "maxsim", progress: Progress | None = None, *,
                     exact_up_to: int | None = None) -> LateIndex:
    """Exact MaxSim up to `exact_up_to` corpus tokens (`searched_exactly`); past it, the token graph with the fewest
    NEIGHBOUR_STEPS that reach TARGET_RECALL (the last step if none does)."""
    if searched_exactly(corpus, exact_up_to):
        return LateIndex(corpus, similarity)
    index = LateIndex(corpus, similarity, hnsw_graph(corpus.rows()[0], PARAMS, progress))
    for neighbours in NEIGHBOUR_STEPS:
        index.neighbours = neighbours
        index.recall_at_10 = measured_recall(index)
        if index.recall_at_10 >= TARGET_RECALL:
            break
    return index


def late_index_key(corpus_key: str) -> str:
    """The token graph of the corpus stored under `corpus_key` (a content hash of its token vectors' origin)."""
    head = json.dumps({"kind": "late tokens", "version": VERSION, "corpus": corpus_key, **PARAMS.options()},
                      sort_keys=True)
    return hashlib.blake2b(head.encode(), digest_size=20).hexdigest()


def stored_late_index(corpus: TokenMatrix, corpus_key: str, similarity: str = "maxsim",
                      progress: Progress | None = None, *, exact_up_to: int | None = None) -> LateIndex:
    """`build_late_index`, its graph read from disk when this corpus was indexed before."""
    if searched_exactly(corpus, exact_up_to):
        return LateIndex(corpus, similarity)
    key = late_index_key(corpus_key)
    found = read_graph(key)
    if found is not None and found[0].ntotal == corpus.token_count and found[1].get("similarity") == similarity:
        graph, meta = found
        return LateIndex(corpus, similarity, graph, int(meta["neighbours"]), float(meta["recall_at_10"]))
    index = build_late_index(corpus, similarity, progress, exact_up_to=exact_up_to)
    write_graph(key, index.graph, {"neighbours": index.neighbours, "recall_at_10": index.recall_at_10,
                                   "similarity": similarity})
    return index
