"""Our metrics equal sentence-transformers' evaluators on the same data, number for number."""

import numpy as np
import pytest
import torch
from sentence_transformers.sentence_transformer.evaluation import InformationRetrievalEvaluator
from sentence_transformers.util import cos_sim

from core.analysis.search import top_k, unit_rows
from core.analysis.similarity import paired_cosine
from core.evaluation.metrics import retrieval_metrics, sts_correlation
from tests.references import LookupModel, embedding_similarity

KS = (1, 3, 5, 10, 20, 50)


def _st_ir(queries, corpus, relevant, mask=None):
    """Run InformationRetrievalEvaluator; `mask` (queries, corpus) True marks pairs excluded from ranking."""
    def score(a, b):
        s = cos_sim(a, b)
        return s.masked_fill(torch.from_numpy(mask), float("-inf")) if mask is not None else s

    qids = {f"q{i:04d}": t for i, t in enumerate(queries)}
    cids = {f"{i:05d}": t for i, t in enumerate(corpus)}
    rel = {f"q{i:04d}": {f"{j:05d}" if isinstance(j, int) else j for j in r} for i, r in enumerate(relevant)}
    evaluator = InformationRetrievalEvaluator(qids, cids, rel, mrr_at_k=[10], ndcg_at_k=[10],
                                              accuracy_at_k=list(KS), precision_recall_at_k=list(KS),
                                              map_at_k=[10], score_functions={"cosine": score})
    return evaluator, evaluator.compute_all_metrics(LookupModel(TABLE))["cosine"]


TABLE: dict[str, np.ndarray] = {}


def _compare(ours, st):
    for k in KS:
        assert ours[f"cosine_recall@{k}"] == pytest.approx(st["recall@k"][k], abs=1e-6), k
    assert ours["cosine_mrr@10"] == pytest.approx(st["mrr@k"][10], abs=1e-6)
    assert ours["cosine_ndcg@10"] == pytest.approx(st["ndcg@k"][10], abs=1e-6)


@pytest.fixture
def random_task():
    rng = np.random.default_rng(7)
    corpus_vecs = rng.standard_normal((300, 16)).astype(np.float32)
    query_vecs = (corpus_vecs[:40] + 0.8 * rng.standard_normal((40, 16))).astype(np.float32)
    corpus = [f"doc {i}" for i in range(300)]
    queries = [f"query {i}" for i in range(40)]
    relevant = [{i} | ({i + 1, 250} if i % 3 == 0 else set()) for i in range(40)]
    TABLE.clear()
    TABLE.update(zip(corpus, corpus_vecs))
    TABLE.update(zip(queries, query_vecs))
    return queries, corpus, relevant, unit_rows(query_vecs), unit_rows(corpus_vecs)


def test_retrieval_metrics_equal_information_retrieval_evaluator(random_task):
    queries, corpus, relevant, q, c = random_task
    ours = retrieval_metrics(top_k(q, c, 50).indices, relevant, ks=KS)
    _, st = _st_ir(queries, corpus, relevant)
    _compare(ours, st)
    assert 0 < ours["cosine_recall@1"] < ours["cosine_recall@10"] < ours["cosine_recall@50"] < 1


def test_excluded_texts_and_relevant_texts_outside_the_corpus_match_the_evaluator(random_task):
    queries, corpus, relevant, q, c = random_task
    exclude = [{i} if i % 2 else set() for i in range(40)]  # a query's own text is never a hit
    mask = np.zeros((40, 300), bool)
    for i, e in enumerate(exclude):
        mask[i, list(e)] = True
    relevant_with_missing = [r | ({"not-in-corpus"} if i % 5 == 0 else set()) for i, r in enumerate(relevant)]
    counts = [len(r) for r in relevant_with_missing]
    hits = top_k(q, c, 50, exclude=exclude)
    assert not any(i in row for i, row in zip(range(1, 40, 2), hits.indices[1::2]))
    ours = retrieval_metrics(hits.indices, relevant, counts=counts, ks=KS)
    _, st = _st_ir(queries, corpus, relevant_with_missing, mask)
    _compare(ours, st)


def test_exact_ties_rank_the_lower_corpus_index_first_as_the_evaluator_does():
    # one-hot vectors: every score is exactly 0 or 1, so most of the corpus ties (like TF-IDF with no
    # shared word); the evaluator orders ties by ascending corpus id
    corpus_vecs = np.zeros((120, 8), np.float32)
    corpus_vecs[np.arange(120), np.arange(120) % 8] = 1
    query_vecs = np.eye(8, dtype=np.float32)[[3, 5, 0, 7]]
    queries, corpus = [f"query {i}" for i in range(4)], [f"doc {i}" for i in range(120)]
    relevant = [{27, 3}, {117}, {64, 8, 119}, {1}]
    TABLE.clear()
    TABLE.update(zip(corpus, corpus_vecs))
    TABLE.update(zip(queries, query_vecs))
    hits = top_k(query_vecs, corpus_vecs, 50, budget=4 * 7 * 13)  # tiny blocks: ties cross block edges
    assert hits.indices[0, :3].tolist() == [3, 11, 19]
    _, st = _st_ir(queries, corpus, relevant)
    _compare(retrieval_metrics(hits.indices, relevant, ks=KS), st)


def test_hand_computed_values():
    ranked = np.array([[3, 1, 2], [0, 1, 2]])
    relevant = [{1}, {2, 9}]  # query 0 finds its text at rank 2; query 1 at rank 3 of two relevant texts
    m = retrieval_metrics(ranked, relevant, ks=(1, 2, 3))
    assert m["cosine_recall@1"] == 0
    assert m["cosine_recall@2"] == pytest.approx(0.5)
    assert m["cosine_recall@3"] == pytest.approx((1 + 0.5) / 2)
    assert m["cosine_mrr@10"] == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert m["cosine_ndcg@10"] == pytest.approx(((1 / np.log2(3)) / 1 + (1 / np.log2(4)) / (1 + 1 / np.log2(3))) / 2)


def test_a_corpus_of_one_text_and_k_larger_than_the_corpus():
    ranked = top_k(unit_rows(np.ones((2, 3))), unit_rows(np.ones((1, 3))), 50).indices
    assert ranked.shape == (2, 1)
    m = retrieval_metrics(ranked, [{0}, {0}], ks=(1, 50))
    assert m == {"cosine_recall@1": 1.0, "cosine_recall@50": 1.0, "cosine_mrr@10": 1.0, "cosine_ndcg@10": 1.0}


def test_no_queries_is_an_error():
    with pytest.raises(ValueError, match="no queries"):
        retrieval_metrics(np.zeros((0, 5), int), [])


def test_sts_correlation_equals_embedding_similarity_evaluator():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((60, 8)).astype(np.float32), rng.standard_normal((60, 8)).astype(np.float32)
    b[:30] += a[:30]
    gold = rng.uniform(0, 5, 60)
    gold[:30] += 2
    ours = sts_correlation(paired_cosine(a, b), gold)
    assert ours == pytest.approx(embedding_similarity(a, b, gold), abs=1e-6)
    assert list(ours) == ["pearson_cosine", "spearman_cosine"]


def test_a_constant_similarity_has_no_correlation_and_no_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy's ConstantInputWarning would fail the test
        ours = sts_correlation(np.ones(5), np.arange(5.0))
    assert all(np.isnan(value) for value in ours.values())
