"""The command line on sparse models: vectors written sparse (.npz, Parquet) equal to encode_document and
encode_query, retrieval and STS on sparse models, BM25, hybrid fusion, and the options that do not apply refused."""

import hashlib
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
from sentence_transformers import SparseEncoder

from core.cli import main
from core.data.sparse_vectors import rows_of
from core.evaluation.retrieval import Scored, build_task, evaluate_fused, evaluate_task, task_vectors
from core.models.loading import load_model
from core.settings import Settings

TEXTS = ["The bank by the river was flooded.", "She deposited her salary at the bank.", "", "A man plays guitar."]


def _input(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("role", ["document", "query"])
def test_embed_writes_a_csr_matrix_equal_to_each_roles_encode(sparse_folders, tmp_path, role):
    folder = sparse_folders["inference-free"]
    out = tmp_path / "out.npz"
    assert main(["embed", "--model", str(folder), "--pooling", "default", "--input", str(_input(tmp_path)),
                 "--output", str(out), "--role", role]) == 0
    reference = SparseEncoder(str(folder), device="cpu")
    expected = (reference.encode_query if role == "query" else reference.encode_document)(TEXTS).to_dense().numpy()
    found = sp.load_npz(out)
    assert found.format == "csr" and found.shape == expected.shape
    np.testing.assert_allclose(found.toarray(), expected, atol=1e-5)


def test_embed_writes_parquet_with_texts_indices_and_values(sparse_folders, tmp_path):
    folder = sparse_folders["splade-prompted"]
    out = tmp_path / "out.parquet"
    assert main(["embed", "--model", str(folder), "--pooling", "default", "--input", str(_input(tmp_path)),
                 "--output", str(out)]) == 0
    table = pq.read_table(out)
    assert table.column_names == ["row_id", "text", "indices", "values"] and table.column("text").to_pylist() == TEXTS
    digests = [hashlib.blake2b(text.encode(), digest_size=8).hexdigest() for text in TEXTS]
    assert table.column("row_id").to_pylist() == [f"{d}:{digests[:i].count(d)}" for i, d in enumerate(digests)]
    expected = SparseEncoder(str(folder), device="cpu").encode_document(TEXTS).to_dense().numpy()
    np.testing.assert_allclose(rows_of(table, 30522).toarray(), expected, atol=1e-5)


def test_a_dense_output_file_is_refused_for_a_sparse_model(sparse_folders, tmp_path, capsys):
    assert main(["embed", "--model", str(sparse_folders["splade"]), "--pooling", "default", "--input",
                 str(_input(tmp_path)), "--output", str(tmp_path / "x.npy")]) == 1
    assert "write them as .npz" in capsys.readouterr().err


@pytest.mark.parametrize("options, said", [
    (["--pooling", "mean"], "--pooling mean does not apply to a sparse model; leave it out."),
    (["--layer", "1"], "--layer does not apply to a sparse model; leave it out."),
    (["--normalize"], "--normalize does not apply to a sparse model; leave it out."),
    (["--truncate-dim", "8"], "--truncate-dim does not apply to a sparse model; leave it out."),
    (["--layer", "1", "--normalize"], "--layer and --normalize do not apply to a sparse model; leave them out."),
    (["--pooling", "cls", "--layer", "1", "--truncate-dim", "8"],
     "--pooling cls, --layer and --truncate-dim do not apply to a sparse model; leave them out."),
])
def test_options_that_do_not_apply_to_a_sparse_model_are_said(sparse_folders, tmp_path, capsys, options, said):
    argv = ["embed", "--model", str(sparse_folders["splade"]), "--input", str(_input(tmp_path)),
            "--output", str(tmp_path / "x.npz")]
    argv += ["--pooling", "default"] if "--pooling" not in options else []
    assert main(argv + options) == 1
    assert capsys.readouterr().err == f"error: {said}\n"
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.parametrize("command", [["search", "--query", "river"], ["evaluate", "sts", "--split", "dev"],
                                     ["evaluate", "retrieval", "--split", "dev"]])
def test_search_and_evaluate_refuse_truncate_dim_on_a_sparse_model_in_the_same_words(sparse_folders, tmp_path,
                                                                                      capsys, command):
    corpus = ["--corpus", str(_input(tmp_path))] if command[0] == "search" else []
    assert main([*command, *corpus, "--model", str(sparse_folders["splade"]), "--pooling", "default",
                 "--truncate-dim", "8"]) == 1
    assert capsys.readouterr().err == "error: --truncate-dim does not apply to a sparse model; leave it out.\n"


def test_a_reranker_given_to_embed_says_it_scores_pairs(reranker_folder, tmp_path, capsys):
    assert main(["embed", "--model", str(reranker_folder), "--pooling", "default", "--input",
                 str(_input(tmp_path)), "--output", str(tmp_path / "x.npy")]) == 1
    assert "reranker" in capsys.readouterr().err and not (tmp_path / "x.npy").exists()


@pytest.fixture
def small_task(monkeypatch):
    from core.data.stsb import stsb_corpus

    corpus = list(stsb_corpus()[:300])
    task = build_task("small", {"A man is playing a flute.": {corpus[3], corpus[7]},
                                "Stocks fell sharply.": {corpus[11]}}, corpus)
    monkeypatch.setattr("core.evaluation.retrieval.paraphrase_task", lambda split: task)
    return task


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_retrieval_on_a_sparse_model_bm25_and_a_hybrid(sparse_folders, small_task, capsys, minilm):
    folder = str(sparse_folders["splade"])
    sparse = _json(capsys, ["evaluate", "retrieval", "--model", folder, "--split", "dev", "--k", "1,10"])
    model = load_model(folder, "cpu")
    expected = evaluate_task(small_task, *task_vectors(model, small_task, Settings(model_id=folder)), ks=(1, 10),
                             score="dot")
    assert sparse["score"] == "dot" and sparse["recall@10"] == expected.metrics["dot_recall@10"]
    bm25 = _json(capsys, ["evaluate", "retrieval", "--baseline", "bm25", "--split", "dev", "--k", "1"])
    assert bm25["score"] == "bm25" and set(bm25) >= {"recall@1", "mrr@10", "ndcg@10"}
    hybrid = _json(capsys, ["evaluate", "retrieval", "--model", folder, "--hybrid", "all-MiniLM-L6-v2", "--split",
                            "dev", "--k", "1,10", "--device", "cpu"])
    stages = [Scored(*task_vectors(model, small_task, Settings(model_id=folder)), "dot", True),
              Scored(*task_vectors(minilm, small_task, Settings()), "cosine", False)]
    fused = evaluate_fused(small_task, *stages, ks=(1, 10))
    assert hybrid["score"] == "rrf" and hybrid["ndcg@10"] == pytest.approx(fused.metrics["rrf_ndcg@10"])
    assert _json(capsys, ["evaluate", "retrieval", "--baseline", "bm25", "--hybrid", "tfidf", "--split", "dev",
                          "--k", "1"])["score"] == "rrf"


def test_sts_on_a_sparse_model_names_its_similarity(sparse_folders, capsys, monkeypatch):
    from core.data.stsb import load_stsb

    pairs = load_stsb("dev")[:30]
    sentences = list(dict.fromkeys(s for p in pairs for s in (p.sentence1, p.sentence2)))
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: pairs)
    monkeypatch.setattr("core.evaluation.sts.stsb_sentences", lambda split: sentences)
    out = _json(capsys, ["evaluate", "sts", "--model", str(sparse_folders["splade-prompted"]), "--pooling",
                         "default", "--split", "dev"])
    assert out["similarity"] == "cosine" and out["pairs"] == 30 and -1 <= out["spearman"] <= 1
