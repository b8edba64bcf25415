"""Reciprocal rank fusion against sentence-transformers' ReciprocalRankFusionEvaluator on the same lists."""

import numpy as np
import pytest
from sentence_transformers.sparse_encoder.evaluation import ReciprocalRankFusionEvaluator

from core.analysis.fusion import RRF_K, fuse, fuse_rows
from core.evaluation.metrics import retrieval_metrics


def test_a_text_in_both_lists_beats_one_in_either_and_ties_keep_first_appearance():
    fused, scores = fuse([[3, 1, 2], [1, 4]])
    assert fused.tolist() == [1, 3, 4, 2]  # 1 is in both lists; 3 is first in one, 4 second, 2 third
    assert scores[0] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    tied, _ = fuse([[5], [6]])
    assert tied.tolist() == [5, 6]  # equal scores: the first list's text first


def test_fused_metrics_equal_the_evaluators_on_random_lists():
    rng = np.random.default_rng(0)
    dense = [rng.permutation(40)[:20] for _ in range(30)]
    sparse = [rng.permutation(40)[:15] for _ in range(30)]
    relevant = [set(rng.choice(40, size=2, replace=False).tolist()) for _ in range(30)]

    def samples(lists):
        return [{"query_id": str(q), "query": str(q), "positive": [str(d) for d in relevant[q]],
                 "documents": [str(d) for d in lists[q]]} for q in range(30)]

    expected = ReciprocalRankFusionEvaluator(samples(dense), samples(sparse), at_k=10, write_csv=False)()
    indices, _ = fuse_rows(dense, sparse, 35)
    ours = retrieval_metrics(indices, relevant, ks=(1,), score="rrf")
    assert ours["rrf_mrr@10"] == pytest.approx(expected["mrr@10"], abs=1e-9)
    assert ours["rrf_ndcg@10"] == pytest.approx(expected["ndcg@10"], abs=1e-9)
