import numpy as np
import pytest

from core.analysis.lexical import fit_baseline
from core.encoding.encoder import encode
from core.evaluation.metrics import retrieval_metrics
from core.evaluation.retrieval import (
    build_task,
    evaluate_lexical,
    evaluate_task,
    metrics_table,
    paraphrase_pairs,
    paraphrase_task,
    recall_curves,
)
from tests import stsb_counts
from tests.references import information_retrieval


@pytest.mark.parametrize("split", ["dev", "test"])
def test_paraphrase_task_has_the_defined_size(split):
    task = paraphrase_task(split)
    assert len(task.queries) == stsb_counts.paraphrase_queries(split)
    assert len(task.corpus) == stsb_counts.first_sentences()
    assert all(task.relevant) and not task.queries_with_missing
    assert sum(task.relevant_count(q) for q in range(len(task.queries))) == \
        sum(len(v) for v in paraphrase_pairs(split).values())


def test_a_query_identical_to_a_corpus_text_excludes_that_text():
    task = paraphrase_task("dev")
    for q, query in enumerate(task.queries):
        assert {task.corpus[i] for i in task.exclude[q]} == ({query} if query in task.corpus else set())
    assert any(task.exclude)  # some dev sentence-2 texts also occur as a sentence 1 elsewhere


def test_relevant_text_missing_from_the_corpus_is_reported_and_counted_as_a_miss():
    task = build_task("mine", {"cat?": {"a cat", "a lost cat"}, "dog?": {"a dog"}}, ["a cat", "a dog", "a car"])
    assert task.queries_with_missing == [0]
    assert task.missing[0] == ["a lost cat"]
    assert task.relevant_count(0) == 2
    vectors = {"cat?": [1, 0, 0], "dog?": [0, 1, 0], "a cat": [1, 0, 0], "a dog": [0, 1, 0], "a car": [0, 0, 1]}
    queries = np.array([vectors[t] for t in task.queries], np.float32)
    corpus = np.array([vectors[t] for t in task.corpus], np.float32)
    result = evaluate_task(task, queries, corpus, ks=(1, 5))
    assert result.metrics["cosine_recall@1"] == pytest.approx((0.5 + 1) / 2)
    assert result.metrics["cosine_recall@5"] == pytest.approx((0.5 + 1) / 2)  # k larger than the corpus
    row = result.per_query.iloc[0]
    assert row["not in corpus"] == "a lost cat"
    assert row["first relevant rank"] == 1


def test_a_query_whose_only_relevant_text_is_missing_has_no_rank():
    task = build_task("mine", {"q": {"gone"}, "r": {"b"}}, ["a", "b"])
    result = evaluate_task(task, np.eye(2, dtype=np.float32), np.eye(2, dtype=np.float32), ks=(1,))
    assert result.metrics["cosine_recall@1"] == 0.5
    assert result.per_query["first relevant rank"].isna().tolist() == [True, False]


def test_diagnostics_give_rank_top_wrong_hit_and_margin():
    task = build_task("toy", {"q": {"right"}}, ["wrong", "right", "far"])
    corpus = np.array([[1, 0.1], [1, 0.5], [0, 1]], np.float32)
    result = evaluate_task(task, np.array([[1, 0]], np.float32), corpus)
    row = result.per_query.iloc[0]
    assert row["first relevant rank"] == 2
    assert row["top wrong hit"] == "wrong"
    cos = corpus[:, 0] / np.linalg.norm(corpus, axis=1)
    assert row["margin"] == pytest.approx(cos[1] - cos[0], abs=1e-6)
    assert row["margin"] < 0


def test_paraphrase_subset_equals_information_retrieval_evaluator(minilm):
    """End to end on real data: our encoder, search and metrics against the standard evaluator."""
    full = paraphrase_task("dev")
    keep_queries = list(range(0, 262, 6))
    docs = sorted({d for q in keep_queries for d in full.relevant[q]} | set(range(0, 7977, 40)))
    corpus = [full.corpus[d] for d in docs]
    pairs = {full.queries[q]: {full.corpus[d] for d in full.relevant[q]} for q in keep_queries}
    task = build_task("subset", pairs, corpus)
    q_vecs = encode(minilm, task.queries).vectors
    c_vecs = encode(minilm, task.corpus).vectors
    ks = (1, 5, 10, 20, 50)
    ours = evaluate_task(task, q_vecs, c_vecs, ks=ks).metrics
    reference = information_retrieval(task, q_vecs, c_vecs, ks)
    assert ours == pytest.approx({key: reference[key] for key in ours}, abs=1e-6)
    assert 0.5 < ours["cosine_recall@10"] <= 1


def test_a_lexical_baseline_equals_information_retrieval_evaluator_on_the_whole_dev_task():
    task = paraphrase_task("dev")
    result = evaluate_lexical(fit_baseline("tfidf", task.corpus), task, ks=(1, 10))
    index = fit_baseline("tfidf", task.corpus)
    reference = information_retrieval(task, index.query_rows(task.queries), index.corpus_rows, (1, 10))
    assert result.metrics == pytest.approx({key: reference[key] for key in result.metrics}, abs=1e-6)
    assert result.counts == {"queries": len(task.queries), "corpus": len(task.corpus)}


def test_evaluate_task_refuses_a_task_without_queries():
    with pytest.raises(ValueError, match="no queries"):
        evaluate_task(build_task("empty", {}, ["a"]), np.zeros((0, 2)), np.ones((1, 2)))


def test_metrics_helper_is_the_one_evaluate_task_uses():
    task = build_task("toy", {"q": {"b"}}, ["a", "b"])
    result = evaluate_task(task, np.array([[0, 1.0]]), np.eye(2), ks=(1,))
    assert result.metrics == retrieval_metrics(np.array([[1, 0]]), [{1}], ks=(1,))


def test_metrics_table_and_recall_curves_come_from_the_results():
    task = build_task("toy", {"q": {"b"}, "r": {"a"}}, ["a", "b"])
    results = {"one": evaluate_task(task, np.array([[0, 1.0], [0, 1.0]]), np.eye(2), ks=(1, 2))}
    table = metrics_table(results)
    assert list(table.columns) == ["configuration", "recall@1", "recall@2", "mrr@10", "ndcg@10"]
    assert table.loc[0, "recall@1"] == results["one"].metrics["cosine_recall@1"] == 0.5
    curves = recall_curves(results, [1, 2])
    assert curves.to_dict("records") == [{"configuration": "one", "k": 1, "recall": 0.5},
                                         {"configuration": "one", "k": 2, "recall": 1.0}]
