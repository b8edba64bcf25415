"""One query ranked over one corpus by several rankers (the model and the lexical baselines), as one tidy table.

Every ranker gets unit-length query and corpus rows, so its score is a cosine in its own space. A lexical
score of 0 means the text shares no word with the query: such a row is listed but is no hit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.analysis.search import Hits, Matrix, top_k, unit_rows
from core.evaluation.lexical import LexicalIndex

COLUMNS = ["ranker", "rank", "index", "score", "hit", "text"]


@dataclass(frozen=True)
class Ranker:
    """A ranker's query row (1, dims) and corpus rows (corpus, dims), unit length; `lexical` scores count as
    hits only above 0."""

    query: Matrix
    corpus: Matrix
    lexical: bool = False

    @classmethod
    def dense(cls, query: np.ndarray, corpus: np.ndarray) -> Ranker:
        """Embedding vectors, scaled to unit length here."""
        return cls(unit_rows(query), unit_rows(corpus))

    @classmethod
    def of_index(cls, index: LexicalIndex, query: str) -> Ranker:
        return cls(index.query_rows([query]), index.corpus_rows, lexical=True)


@dataclass(frozen=True)
class QueryRanking:
    """`table` has one row per (ranker, rank): COLUMNS. `primary` is the ranker the others are set beside."""

    table: pd.DataFrame
    primary: str
    k: int

    def ranked(self, ranker: str) -> pd.DataFrame:
        rows = self.table[self.table["ranker"] == ranker]
        return rows.drop(columns="ranker").reset_index(drop=True)

    @property
    def others(self) -> list[str]:
        return [name for name in dict.fromkeys(self.table["ranker"]) if name != self.primary]

    def rank_under(self, ranker: str) -> dict[int, int]:
        """Corpus index -> rank, for the texts `ranker` found (hits only)."""
        rows = self.table[(self.table["ranker"] == ranker) & self.table["hit"]]
        return dict(zip(rows["index"].tolist(), rows["rank"].tolist()))

    def side_by_side(self, ranker: str | None = None) -> pd.DataFrame:
        """`ranker`'s list (the primary one by default) with the rank each other ranker gave the same text
        (missing where that ranker did not find it in its top k)."""
        ranker = ranker or self.primary
        frame = self.ranked(ranker)
        for other in [self.primary, *self.others]:
            if other != ranker:
                ranks = self.rank_under(other)
                frame[f"{other} rank"] = pd.array([ranks.get(i) for i in frame["index"]], dtype="Int64")
        return frame

    def shared(self) -> dict[str, int]:
        """How many texts of the primary list each other ranker also found."""
        primary = set(self.ranked(self.primary)["index"])
        return {other: len(primary & set(self.rank_under(other))) for other in self.others}

    def no_word_shared(self, ranker: str) -> bool:
        """A lexical ranker whose list holds no hit: the query shares no word with the corpus."""
        return not self.table.loc[self.table["ranker"] == ranker, "hit"].any()


def _ranked(name: str, indices: np.ndarray, scores: np.ndarray, texts: Sequence[str], lexical: bool) -> pd.DataFrame:
    scores = scores.astype(np.float64)
    return pd.DataFrame({"ranker": name, "rank": np.arange(1, len(indices) + 1), "index": indices, "score": scores,
                         "hit": scores > 0 if lexical else np.ones(len(indices), bool), "text": list(texts)})[COLUMNS]


def rank_query(corpus: Sequence[str], rankers: Mapping[str, Ranker], *, k: int, primary: str) -> QueryRanking:
    """The top `k` (at most the corpus size) of each ranker, best first; ties keep the lower corpus index."""
    if primary not in rankers:
        raise ValueError(f"The primary ranker {primary!r} is not among the rankers {list(rankers)}.")
    k = min(k, len(corpus))
    frames = []
    for name, ranker in rankers.items():
        hits = top_k(ranker.query, ranker.corpus, k)
        frames.append(_ranked(name, hits.indices[0], hits.scores[0], [corpus[i] for i in hits.indices[0]],
                              ranker.lexical))
    return QueryRanking(pd.concat(frames, ignore_index=True), primary, k)


def hits_ranking(name: str, hits: Hits, texts: Sequence[str]) -> QueryRanking:
    """One query's hits from a vector index as a ranking of one ranker; `texts` are the hits' own, in order."""
    return QueryRanking(_ranked(name, hits.indices[0], hits.scores[0], texts, False), name, len(texts))
