"""One query ranked over one corpus by several rankers (the model, the lexical baselines, a hybrid of two), as one
tidy table.

A ranker scores the corpus by the dot product of its query row with each corpus row: a dense model's unit rows (the
cosine), a sparse model's vectors (its own similarity), a baseline's rows (TF-IDF's cosine, BM25's score). A lexical
score of 0 means the text shares no word with the query: such a row is listed but is no hit. A late-interaction
model's list is ranked by exact MaxSim over its token vectors and comes in whole (`Listed`). A hybrid ranker fuses
two rankers' lists by reciprocal rank fusion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from core.analysis.fusion import FUSE_DEPTH, fuse
from core.analysis.lexical import Lexical
from core.analysis.search import SCORE, Hits, Matrix, top_k, unit_rows

COLUMNS = ["ranker", "rank", "index", "score", "hit", "text"]
SCORE_NAMES = {"cosine": "cosine similarity", "dot": "dot product", "bm25": "BM25 score", "rrf": "RRF score",
               "reranker": "reranker score", "maxsim": "MaxSim score", "meanmaxsim": "MeanMaxSim score"}
# the column of a frame's similarities: its name says which one
SIMILARITIES = (SCORE, "dot", "maxsim", "meanmaxsim", "reranker")


def similarity_column(frame: pd.DataFrame) -> str:
    return next(name for name in SIMILARITIES if name in frame.columns)


@dataclass(frozen=True)
class Ranker:
    """A ranker's query row (1, dims) and corpus rows (corpus, dims), scored by their dot product, which is
    `score`; `lexical` scores count as hits only above 0."""

    query: Matrix
    corpus: Matrix
    lexical: bool = False
    score: str = "cosine"

    @classmethod
    def dense(cls, query: np.ndarray, corpus: np.ndarray) -> Ranker:
        """Embedding vectors, scaled to unit length here."""
        return cls(unit_rows(query), unit_rows(corpus))

    @classmethod
    def of_index(cls, index: Lexical, query: str) -> Ranker:
        return cls(index.query_rows([query]), index.corpus_rows, lexical=True, score=index.score)


@dataclass(frozen=True)
class Listed:
    """A ranker whose list of one query was ranked elsewhere (a late-interaction model's exact MaxSim top k): corpus
    indices and scores, (1, depth), best first."""

    hits: Hits
    score: str
    lexical: bool = False


@dataclass(frozen=True)
class Hybrid:
    """Two rankers' top `depth` lists fused by reciprocal rank fusion."""

    first: str
    second: str
    depth: int = FUSE_DEPTH
    score: str = "rrf"


@dataclass(frozen=True)
class RankedList:
    """One ranker's list, best first: corpus indices, scores, which rows are hits, and the rows' texts."""

    indices: np.ndarray
    scores: np.ndarray
    hit: np.ndarray
    texts: list[str]

    @classmethod
    def of(cls, indices: np.ndarray, scores: np.ndarray, texts: Sequence[str], lexical: bool) -> RankedList:
        scores = np.asarray(scores, dtype=np.float64)
        return cls(np.asarray(indices), scores, scores > 0 if lexical else np.ones(len(scores), bool), list(texts))

    @cached_property
    def ranks(self) -> dict[int, int]:
        """Corpus index -> rank, for the hits."""
        return {i: rank for rank, (i, hit) in enumerate(zip(self.indices.tolist(), self.hit.tolist()), start=1)
                if hit}

    def columns(self) -> dict[str, Any]:
        return {"rank": np.arange(1, len(self.indices) + 1), "index": self.indices, "score": self.scores,
                "hit": self.hit, "text": self.texts}


NO_LIST = RankedList(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, bool), [])


@dataclass(frozen=True)
class QueryRanking:
    """Each ranker's list (`lists`, in the rankers' order); `table` holds them all, one row per (ranker, rank):
    COLUMNS. `primary` is the ranker the others are set beside; `scores` names what each ranker's scores are. The
    lists stay arrays, and a frame is built only for what is shown: a page reads the lists several times a rerun,
    and pandas frames of a few rows (their texts as pyarrow strings) were a third of a Retrieval rerun's own time."""

    lists: Mapping[str, RankedList]
    primary: str
    k: int
    scores: Mapping[str, str]

    @cached_property
    def table(self) -> pd.DataFrame:
        return pd.concat([pd.DataFrame({"ranker": name, **ranked.columns()}) for name, ranked in self.lists.items()],
                         ignore_index=True)[COLUMNS]

    def ranked(self, ranker: str) -> pd.DataFrame:
        return pd.DataFrame(self.lists.get(ranker, NO_LIST).columns())

    @property
    def others(self) -> list[str]:
        return [name for name in self.lists if name != self.primary]

    def rank_under(self, ranker: str) -> dict[int, int]:
        """Corpus index -> rank, for the texts `ranker` found (hits only)."""
        return self.lists.get(ranker, NO_LIST).ranks

    def side_by_side(self, ranker: str | None = None) -> pd.DataFrame:
        """`ranker`'s list (the primary one by default) with the rank each other ranker gave the same text
        (missing where that ranker did not find it in its top k)."""
        ranker = ranker or self.primary
        found = self.lists.get(ranker, NO_LIST)
        indices = found.indices.tolist()
        return pd.DataFrame({**found.columns(),
                             **{f"{other} rank": pd.array([self.rank_under(other).get(i) for i in indices],
                                                          dtype="Int64")
                                for other in [self.primary, *self.others] if other != ranker}})

    def shared(self) -> dict[str, int]:
        """How many texts of the primary list each other ranker also found."""
        primary = set(self.lists[self.primary].indices.tolist())
        return {other: len(primary & set(self.rank_under(other))) for other in self.others}

    def no_word_shared(self, ranker: str) -> bool:
        """A lexical ranker whose list holds no hit: the query shares no word with the corpus."""
        return not self.rank_under(ranker)


AnyRanker = Ranker | Listed | Hybrid


def _hits_of(hits: Hits, ranker: AnyRanker, depth: int) -> np.ndarray:
    """The first `depth` texts a ranker found (a lexical ranker's only where it scores above 0)."""
    indices, scores = hits.indices[0][:depth], hits.scores[0][:depth]
    return indices[scores > 0] if isinstance(ranker, Ranker) and ranker.lexical else indices


def rank_query(corpus: Sequence[str], rankers: Mapping[str, AnyRanker], *, k: int,
               primary: str) -> QueryRanking:
    """The top `k` (at most the corpus size) of each ranker, best first; ties keep the lower corpus index. A hybrid
    fuses the hits of the two rankers it names (a lexical ranker's only above 0)."""
    if primary not in rankers:
        raise ValueError(f"The primary ranker {primary!r} is not among the rankers {list(rankers)}.")
    k = min(k, len(corpus))
    lists: dict[str, Hits] = {}
    for name, ranker in rankers.items():
        if isinstance(ranker, Listed):
            lists[name] = ranker.hits
        elif isinstance(ranker, Ranker):
            fused = [h.depth for h in rankers.values() if isinstance(h, Hybrid) and name in (h.first, h.second)]
            lists[name] = top_k(ranker.query, ranker.corpus, min(max([k, *fused]), len(corpus)))
    listed: dict[str, RankedList] = {}
    for name, ranker in rankers.items():
        if isinstance(ranker, Hybrid):
            indices, scores = fuse([_hits_of(lists[part], rankers[part], ranker.depth)
                                    for part in (ranker.first, ranker.second)])
            lexical = False
        else:
            indices, scores, lexical = lists[name].indices[0][:k], lists[name].scores[0][:k], ranker.lexical
        listed[name] = RankedList.of(indices[:k], scores[:k], [corpus[i] for i in indices[:k]], lexical)
    return QueryRanking(listed, primary, k, {name: ranker.score for name, ranker in rankers.items()})


def hits_ranking(name: str, hits: Hits, texts: Sequence[str], score: str = "cosine") -> QueryRanking:
    """One query's hits from a vector index as a ranking of one ranker; `texts` are the hits' own, in order."""
    return QueryRanking({name: RankedList.of(hits.indices[0], hits.scores[0], texts, False)}, name, len(texts),
                        {name: score})
