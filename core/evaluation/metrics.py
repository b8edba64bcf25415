"""Retrieval and STS metrics, defined as sentence-transformers' evaluators define them (tests check it).

Recall@k is the share of a query's relevant texts found in its top k, averaged over queries; MRR@10 is the
mean reciprocal rank of the first relevant text within the top 10; nDCG@10 uses binary relevance. Statistics
come from scipy and scikit-learn. Metric dictionaries hold floats only, under the evaluators' namespaced keys
(`cosine_recall@10`, `spearman_cosine`; a sparse model's `dot_recall@10`, as SparseInformationRetrievalEvaluator
names them by the model's similarity); counts travel apart from them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from scipy.stats import pearsonr, spearmanr
from sklearn.metrics import ndcg_score

from core.analysis.search import SCORE
from core.evaluation.cutoffs import DEFAULT_KS

MRR_K = NDCG_K = 10
# the scores a ranking is by: a similarity (a sparse model's own may be the dot product; a late-interaction model's
# MaxSim or MeanMaxSim), BM25, or rank fusion
SCORES = ("cosine", "dot", "bm25", "rrf", "reranker", "maxsim", "meanmaxsim")
STS_PRIMARY = f"spearman_{SCORE}"


def recall_key(k: int, score: str = SCORE) -> str:
    return f"{score}_recall@{k}"


def primary_key(score: str = SCORE) -> str:
    """sentence-transformers' primary retrieval metric, nDCG@10, under the ranking's score."""
    return f"{score}_ndcg@{NDCG_K}"


def shown_name(key: str) -> str:
    """A metric key as a table column: `cosine_recall@10` -> `recall@10`, `spearman_dot` -> `spearman`."""
    head, _, tail = key.partition("_")
    if head in SCORES:
        return tail
    return key.rsplit("_", 1)[0] if key.rsplit("_", 1)[-1] in SCORES else key


def hit_matrix(ranked: np.ndarray, relevant: Sequence[Collection[int]]) -> np.ndarray:
    """Boolean (queries, depth): whether the text at each rank is relevant to the query."""
    return np.array([[int(doc) in relevant[q] for doc in row] for q, row in enumerate(ranked)], dtype=bool) \
        .reshape(ranked.shape)


def recall_at(hits: np.ndarray, counts: np.ndarray, k: int) -> float:
    return float(np.mean(hits[:, :k].sum(axis=1) / counts))


def mrr_at(hits: np.ndarray, k: int = MRR_K) -> float:
    top = hits[:, :k]
    first = top.argmax(axis=1)
    return float(np.mean(np.where(top.any(axis=1), 1.0 / (first + 1), 0.0)))


def ndcg_at(hits: np.ndarray, counts: np.ndarray, k: int = NDCG_K) -> float:
    """scikit-learn's nDCG, with each query's relevant texts that were not retrieved placed after rank k,
    so that the ideal ordering sees every relevant text but they add nothing to the gain."""
    depth = hits.shape[1]
    unretrieved = (counts - hits.sum(axis=1)).astype(int)
    after = max(depth, k)
    truth = np.zeros((len(hits), after + max(int(unretrieved.max(initial=0)), 1)))
    truth[:, :depth] = hits
    for q, extra in enumerate(unretrieved):
        truth[q, after:after + extra] = 1
    scores = np.tile(np.arange(truth.shape[1], 0, -1, dtype=float), (len(hits), 1))
    return float(ndcg_score(truth, scores, k=k, ignore_ties=True))


def retrieval_metrics(ranked: np.ndarray, relevant: Sequence[Collection[int]], *,
                      counts: Sequence[int] | None = None, ks: Sequence[int] = DEFAULT_KS,
                      score: str = SCORE) -> dict[str, float]:
    """`ranked` (queries, depth) holds corpus indices best first; `counts` are the numbers of relevant texts
    per query when some are not in the corpus (they count as misses). Keys, under the ranking's `score`:
    cosine_recall@k…, cosine_mrr@10, cosine_ndcg@10."""
    if len(ranked) == 0:
        raise ValueError("There are no queries to evaluate.")
    counts_arr = np.array(counts if counts is not None else [len(r) for r in relevant], dtype=float)
    if (counts_arr <= 0).any():
        raise ValueError("Every query needs at least one relevant text.")
    hits = hit_matrix(np.asarray(ranked), relevant)
    result = {recall_key(k, score): recall_at(hits, counts_arr, k) for k in sorted(set(ks))}
    result[f"{score}_mrr@{MRR_K}"] = mrr_at(hits)
    result[primary_key(score)] = ndcg_at(hits, counts_arr)
    return result


def sts_correlation(similarity: np.ndarray, gold: np.ndarray, score: str = SCORE) -> dict[str, float]:
    """Pearson and Spearman correlation (scipy) between similarities (by `score`) and gold scores; NaN (undefined,
    and no scipy warning) when either side is constant."""
    if len(similarity) < 2:
        raise ValueError("A correlation needs at least two pairs.")
    if np.ptp(similarity) == 0 or np.ptp(gold) == 0:
        return {f"pearson_{score}": float("nan"), f"spearman_{score}": float("nan")}
    return {f"pearson_{score}": float(pearsonr(gold, similarity).statistic),
            f"spearman_{score}": float(spearmanr(gold, similarity).statistic)}
