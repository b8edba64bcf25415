"""Retrieve-then-rerank measured on a retrieval task: a first stage's top N per query reordered by a cross-encoder,
then scored as any ranking here (the reranked top N, then the first stage's order after it). For N of at least
10 and candidates that hold every relevant text, MRR@10 and nDCG@10 are CrossEncoderRerankingEvaluator's on the same
candidates. Every query's pairs are scored once at the deepest N; each shallower N reorders its share of them. A
cross-encoder's STS-B correlation is CrossEncoderCorrelationEvaluator's."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.analysis.rerank import pair_scores, reranked_order
from core.analysis.search import Hits
from core.data.stsb import Split, load_stsb
from core.encoding.encoder import Progress
from core.evaluation.metrics import DEFAULT_KS, shown_name, sts_correlation
from core.evaluation.retrieval import (
    RetrievalTask,
    Scored,
    TaskResult,
    evaluate_stage,
    listed_result,
    ranking_depth,
)
from core.models.reranker import LoadedReranker

DEPTHS = (1, 5, 10, 20, 50)
SCORE = "reranker"


@dataclass(frozen=True)
class RerankSweep:
    """The first stage alone (`first`), the task after reranking its top N for each N (`reranked`), and the
    reranker's time per pair, measured over every pair it scored."""

    first: TaskResult
    reranked: dict[int, TaskResult]
    seconds_per_pair: float
    pairs: int

    def frame(self) -> pd.DataFrame:
        """One row per N (0: the first stage alone): the metrics and the reranker's milliseconds per query."""
        rows = [{"top N reranked": 0, **{shown_name(k): v for k, v in self.first.metrics.items()},
                 "ms per query": 0.0}]
        rows += [{"top N reranked": n, **{shown_name(k): v for k, v in result.metrics.items()},
                  "ms per query": 1000 * self.seconds_per_pair * n} for n, result in self.reranked.items()]
        return pd.DataFrame(rows)


def rerank_task(task: RetrievalTask, stage: Scored, reranker: LoadedReranker, *, depths: Sequence[int] = DEPTHS,
                ks: Sequence[int] = DEFAULT_KS, progress: Progress | None = None) -> RerankSweep:
    """The first stage's top max(depths) per query scored by the reranker once, then reordered at each depth."""
    deepest = max(depths)
    depth = max(ranking_depth(ks), deepest)
    hits = stage.hits(task, depth)
    first = evaluate_stage(task, stage, ks=ks)
    listed = hits.indices[:, :deepest]
    where = np.argwhere(listed >= 0)
    pairs = [(task.queries[q], task.corpus[listed[q, j]]) for q, j in where]
    started = time.perf_counter()
    found = pair_scores(reranker, pairs, progress=progress)
    seconds = time.perf_counter() - started
    scores = np.full(listed.shape, -np.inf)
    scores[where[:, 0], where[:, 1]] = found
    reranked = {n: _reranked(task, hits, scores, n, ks) for n in depths}
    return RerankSweep(first, reranked, seconds / max(len(pairs), 1), len(pairs))


def _reranked(task: RetrievalTask, hits: Hits, scores: np.ndarray, n: int, ks: Sequence[int]) -> TaskResult:
    """The task after reranking each query's first-stage top `n`: those by the reranker's score, the rest after
    them in the first stage's order (their score NaN: the reranker did not read them at this depth)."""
    ranked = hits.indices.copy()
    shown = np.full(hits.indices.shape, np.nan)
    for q in range(len(ranked)):
        top = np.flatnonzero(hits.indices[q, :n] >= 0)
        order = top[reranked_order(scores[q, top])]
        ranked[q, :len(order)] = hits.indices[q, order]
        shown[q, :len(order)] = scores[q, order]
    return listed_result(task, Hits(ranked, shown), ks, SCORE)


def cross_sts(reranker: LoadedReranker, split: Split, *, progress: Progress | None = None) -> pd.DataFrame:
    """One row per STS-B pair with its gold score and the reranker's score of the two sentences read together."""
    pairs = load_stsb(split)
    scores = pair_scores(reranker, [(p.sentence1, p.sentence2) for p in pairs], progress=progress)
    return pd.DataFrame({"genre": [p.genre for p in pairs], "source": [p.source for p in pairs],
                         "gold": [p.score for p in pairs], SCORE: scores,
                         "sentence 1": [p.sentence1 for p in pairs], "sentence 2": [p.sentence2 for p in pairs]})


def cross_correlation(frame: pd.DataFrame) -> dict[str, float]:
    return sts_correlation(frame[SCORE].to_numpy(), frame["gold"].to_numpy(), score=SCORE)
