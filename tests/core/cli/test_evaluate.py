import json

import numpy as np
import pytest

from core.cli import main
from core.data.stsb import load_stsb
from core.evaluation.lexical import baseline_vectors
from core.evaluation.metrics import paired_cosine, sts_correlation
from core.evaluation.retrieval import evaluate_task, paraphrase_task
from tests.views.cache_fill import prefill


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_retrieval_baseline_prints_the_contract_json(capsys):
    out = _json(capsys, ["evaluate", "retrieval", "--baseline", "tfidf", "--split", "dev", "--k", "1,10"])
    assert list(out) == ["recall@1", "recall@10", "mrr@10", "ndcg@10", "queries", "corpus"]
    assert out["queries"] == 262 and out["corpus"] == 7977
    task = paraphrase_task("dev")
    corpus, queries = baseline_vectors("tfidf", task.corpus, task.queries)
    expected = evaluate_task(task, queries, corpus, ks=[1, 10]).metrics
    assert {k: out[k] for k in expected} == pytest.approx(expected, abs=1e-12)
    assert out["recall@1"] == pytest.approx(0.7461832061, abs=1e-9)


def test_retrieval_default_ks_and_the_model_path(capsys, minilm):
    task = paraphrase_task("test")
    corpus = prefill(minilm, task.corpus, pooling="mean")
    queries = prefill(minilm, task.queries, pooling="mean", seed=1)
    out = _json(capsys, ["evaluate", "retrieval", "--model", "all-MiniLM-L6-v2", "--pooling", "mean",
                         "--split", "test", "--device", "cpu"])
    assert [k for k in out if k.startswith("recall@")] == ["recall@1", "recall@5", "recall@10", "recall@20",
                                                           "recall@50"]
    expected = evaluate_task(task, queries, corpus).metrics
    assert {k: out[k] for k in expected} == pytest.approx(expected, abs=1e-12)
    assert out["queries"] == 336


def test_sts_prints_spearman_pearson_and_pairs(capsys, minilm):
    pairs = load_stsb("dev")
    sentences = list(dict.fromkeys(s for p in pairs for s in (p.sentence1, p.sentence2)))
    vectors = prefill(minilm, sentences, layer=3, seed=5)
    row = {s: i for i, s in enumerate(sentences)}
    out = _json(capsys, ["evaluate", "sts", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--split", "dev",
                         "--layer", "3", "--device", "cpu"])
    cos = paired_cosine(vectors[[row[p.sentence1] for p in pairs]], vectors[[row[p.sentence2] for p in pairs]])
    assert out == pytest.approx(sts_correlation(cos, np.array([p.score for p in pairs])))
    assert list(out) == ["spearman", "pearson", "pairs"] and out["pairs"] == 1500


@pytest.mark.parametrize("argv", [
    ["evaluate", "retrieval", "--split", "dev"],
    ["evaluate", "retrieval", "--split", "dev", "--baseline", "bow", "--model", "all-MiniLM-L6-v2"],
    ["evaluate", "retrieval", "--split", "dev", "--baseline", "bow", "--k", "0,5"],
    ["evaluate", "retrieval", "--split", "train2", "--baseline", "bow"],
    ["evaluate", "sts", "--model", "all-MiniLM-L6-v2", "--split", "dev"],
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1


def test_an_unavailable_model_fails_with_status_1(capsys):
    assert main(["evaluate", "sts", "--model", "bert-base-uncased", "--pooling", "mean", "--split", "dev"]) == 1
    assert capsys.readouterr().err.startswith("error:")
