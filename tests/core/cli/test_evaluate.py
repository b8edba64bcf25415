import json

import pytest

from core.analysis.lexical import fit_baseline
from core.cli import main
from core.data.stsb import load_stsb, stsb_sentences
from core.evaluation.metrics import DEFAULT_KS
from core.evaluation.retrieval import paraphrase_task
from tests.references import embedding_similarity, information_retrieval
from tests.views.cache_fill import prefill


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _contract(reference: dict[str, float], ks) -> dict[str, float]:
    """The evaluator's namespaced keys as the command line's contract names them."""
    return {**{f"recall@{k}": reference[f"cosine_recall@{k}"] for k in ks},
            "mrr@10": reference["cosine_mrr@10"], "ndcg@10": reference["cosine_ndcg@10"]}


def test_retrieval_baseline_prints_the_contract_json_equal_to_the_evaluator(capsys):
    out = _json(capsys, ["evaluate", "retrieval", "--baseline", "tfidf", "--split", "dev", "--k", "1,10"])
    assert list(out) == ["recall@1", "recall@10", "mrr@10", "ndcg@10", "queries", "corpus", "score"]
    task = paraphrase_task("dev")
    assert (out["queries"], out["corpus"]) == (len(task.queries), len(task.corpus))
    index = fit_baseline("tfidf", task.corpus)
    reference = information_retrieval(task, index.query_rows(task.queries), index.corpus_rows, (1, 10))
    assert {k: out[k] for k in list(out)[:4]} == pytest.approx(_contract(reference, (1, 10)), abs=1e-6)


def test_retrieval_default_ks_and_the_model_path_equal_the_evaluator(capsys, minilm):
    task = paraphrase_task("test")
    corpus = prefill(minilm, task.corpus, pooling="mean")
    queries = prefill(minilm, task.queries, pooling="mean", seed=1)
    out = _json(capsys, ["evaluate", "retrieval", "--model", "all-MiniLM-L6-v2", "--pooling", "mean",
                         "--split", "test", "--device", "cpu"])
    assert [k for k in out if k.startswith("recall@")] == [f"recall@{k}" for k in DEFAULT_KS]
    reference = information_retrieval(task, queries, corpus, DEFAULT_KS)
    assert {k: v for k, v in out.items() if "@" in k} == pytest.approx(_contract(reference, DEFAULT_KS), abs=1e-6)
    assert out["queries"] == len(task.queries)


def test_sts_prints_spearman_pearson_and_pairs_equal_to_the_evaluator(capsys, minilm):
    pairs = load_stsb("dev")
    sentences = stsb_sentences("dev")
    vectors = prefill(minilm, sentences, layer=3, seed=5)
    row = {s: i for i, s in enumerate(sentences)}
    out = _json(capsys, ["evaluate", "sts", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--split", "dev",
                         "--layer", "3", "--device", "cpu"])
    reference = embedding_similarity(vectors[[row[p.sentence1] for p in pairs]],
                                     vectors[[row[p.sentence2] for p in pairs]], [p.score for p in pairs])
    assert list(out) == ["spearman", "pearson", "pairs", "similarity"] and out["pairs"] == len(pairs)
    assert (out["spearman"], out["pearson"]) == pytest.approx(
        (reference["spearman_cosine"], reference["pearson_cosine"]), abs=1e-6)


@pytest.mark.parametrize("argv", [
    ["evaluate", "retrieval", "--split", "dev"],
    ["evaluate", "retrieval", "--split", "dev", "--baseline", "bow", "--model", "all-MiniLM-L6-v2"],
    ["evaluate", "retrieval", "--split", "dev", "--baseline", "bow", "--k", "0,5"],
    ["evaluate", "retrieval", "--split", "train2", "--baseline", "bow"],
    ["evaluate", "sts", "--model", "all-MiniLM-L6-v2"],
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


def test_retrieval_with_a_quantised_corpus_equals_the_evaluator_on_int8_codes(capsys, minilm):
    import numpy as np
    import torch
    from sentence_transformers.util import quantize_embeddings

    task = paraphrase_task("test")
    corpus = prefill(minilm, task.corpus, pooling="mean", seed=7)
    queries = prefill(minilm, task.queries, pooling="mean", seed=8)
    out = _json(capsys, ["evaluate", "retrieval", "--model", "all-MiniLM-L6-v2", "--pooling", "mean",
                         "--split", "test", "--device", "cpu", "--k", "1,10", "--quantize", "int8"])

    def int8(a, b):
        codes = [quantize_embeddings(x.numpy(), precision="int8", calibration_embeddings=corpus).astype(np.int64)
                 for x in (a, b)]
        return torch.from_numpy((codes[0] @ codes[1].T).astype(np.float32))

    reference = information_retrieval(task, queries, corpus, (1, 10), score=int8)
    assert {k: out[k] for k in ("recall@1", "recall@10", "mrr@10", "ndcg@10")} == pytest.approx(
        _contract(reference, (1, 10)), abs=1e-6)
    assert out["bytes_per_vector"] == 384 and out["ms_per_query"] > 0 and out["queries"] == len(task.queries)


def test_a_baseline_cannot_be_quantised(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "retrieval", "--baseline", "tfidf", "--split", "dev", "--quantize", "binary"])
    assert "a baseline has none" in capsys.readouterr().err
