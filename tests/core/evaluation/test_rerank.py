"""Retrieve-then-rerank against sentence-transformers' own: the reranked order is CrossEncoder.rank's on the same
candidates, the task's metrics are CrossEncoderRerankingEvaluator's, a cross-encoder's STS-B correlation is
CrossEncoderCorrelationEvaluator's; all on a tiny CrossEncoder folder saved by sentence-transformers."""

import numpy as np
import pytest
from sentence_transformers import CrossEncoder
from sentence_transformers.cross_encoder.evaluation import (
    CrossEncoderCorrelationEvaluator,
    CrossEncoderRerankingEvaluator,
)

from core.analysis.lexical import fit_baseline
from core.analysis.rerank import rerank_hits
from core.data.stsb import load_stsb, stsb_corpus
from core.evaluation.metrics import shown_name
from core.evaluation.rerank import cross_correlation, cross_sts, rerank_task
from core.evaluation.retrieval import Scored, build_task, lexical_stage, paraphrase_pairs
from core.models.reranker import load_reranker


@pytest.fixture(scope="module")
def reranker(reranker_folder):
    return load_reranker(str(reranker_folder), "cpu")


@pytest.fixture(scope="module")
def reference(reranker_folder):
    return CrossEncoder(str(reranker_folder), device="cpu")


@pytest.fixture(scope="module")
def task():
    """30 STS-B dev paraphrase queries over a corpus of their relevant texts and 30 others: 100 texts at most."""
    every = paraphrase_pairs("dev")
    relevant_anywhere = {doc for docs in every.values() for doc in docs}
    pairs = dict([(q, docs) for q, docs in every.items() if q not in relevant_anywhere][:30])
    relevant = sorted({doc for docs in pairs.values() for doc in docs})
    others = [text for text in stsb_corpus() if text not in relevant and text not in pairs][:30]
    return build_task("small", pairs, relevant + others)


def test_a_querys_hits_are_reordered_as_crossencoder_rank_orders_them(reranker, reference):
    corpus = list(stsb_corpus()[:12])
    query = "A man is playing a guitar."
    found = rerank_hits(reranker, query, list(range(12)), np.linspace(1, 0, 12), corpus, first_stage="test")
    expected = reference.rank(query, corpus)
    assert found.table["index"].tolist() == [hit["corpus_id"] for hit in expected]
    assert found.table["reranker score"].tolist() == pytest.approx([hit["score"] for hit in expected], abs=1e-5)
    assert (found.table["first-stage rank"] - found.table["rank"] == found.table["move"]).all()


def test_reranking_every_candidate_equals_the_reranking_evaluator(reranker, reference, task):
    bm25 = lexical_stage(fit_baseline("bm25", task.corpus), task)
    stage = Scored(bm25.queries, bm25.corpus, bm25.score, positive_only=False)  # every text a candidate, in order
    deepest = len(task.corpus)  # so the evaluator's list holds every relevant text
    sweep = rerank_task(task, stage, reranker, depths=[deepest], ks=(1, 5, 10))
    hits = stage.hits(task, deepest)
    samples = [{"query": query, "positive": [task.corpus[d] for d in task.relevant[q]],
                "documents": [task.corpus[d] for d in hits.indices[q]]} for q, query in enumerate(task.queries)]
    expected = CrossEncoderRerankingEvaluator(samples, at_k=10, always_rerank_positives=False, write_csv=False)(
        reference)
    found = sweep.reranked[deepest].metrics
    assert found["reranker_mrr@10"] == pytest.approx(expected["mrr@10"], abs=1e-6)
    assert found["reranker_ndcg@10"] == pytest.approx(expected["ndcg@10"], abs=1e-6)


def test_each_depth_reorders_only_its_top_n_and_keeps_the_first_stage_after(reranker, reference, task):
    stage = lexical_stage(fit_baseline("tfidf", task.corpus), task)
    sweep = rerank_task(task, stage, reranker, depths=[1, 5, 10], ks=(1, 10))
    frame = sweep.frame()
    assert frame["top N reranked"].tolist() == [0, 1, 5, 10]
    first = {shown_name(k): v for k, v in sweep.first.metrics.items()}
    assert frame.iloc[0]["recall@1"] == first["recall@1"] == frame.iloc[1]["recall@1"]  # N = 1 reorders nothing
    assert frame["ms per query"].tolist() == pytest.approx([0, 1, 5, 10] * np.array(1000 * sweep.seconds_per_pair))
    hits = stage.hits(task, 10)
    q = 0
    expected = reference.rank(task.queries[q], [task.corpus[d] for d in hits.indices[q, :10]])
    listed = sweep.reranked[10].per_query  # the first relevant rank follows the reranked order
    reordered = [int(hits.indices[q, hit["corpus_id"]]) for hit in expected]
    rank = next((i + 1 for i, d in enumerate(reordered) if d in task.relevant[q]), None)
    assert (pd_na(listed.iloc[q]["first relevant rank"]) if rank is None else listed.iloc[q]["first relevant rank"]
            == rank)


def pd_na(value) -> bool:
    import pandas as pd

    return value is pd.NA or pd.isna(value)


def test_a_cross_encoders_sts_correlation_is_the_correlation_evaluators(reranker, reference, monkeypatch):
    pairs = load_stsb("dev")[:50]
    monkeypatch.setattr("core.evaluation.rerank.load_stsb", lambda split: pairs)
    found = cross_correlation(cross_sts(reranker, "dev"))
    expected = CrossEncoderCorrelationEvaluator([[p.sentence1, p.sentence2] for p in pairs],
                                                [p.score for p in pairs], write_csv=False)(reference)
    assert found["spearman_reranker"] == pytest.approx(expected["spearman"], abs=1e-6)
    assert found["pearson_reranker"] == pytest.approx(expected["pearson"], abs=1e-6)


def test_an_embedding_model_asked_for_as_a_reranker_is_said(sparse_folders):
    from core.models.catalog import ModelUnavailable

    with pytest.raises(ModelUnavailable, match="sparse model, which embeds texts one by one; a reranker"):
        load_reranker(str(sparse_folders["splade"]))
