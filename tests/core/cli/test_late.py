"""The command line on late-interaction models: token vectors written as Parquet (text, tokens, token_vectors) equal
to encode_query / encode_document, .npy refused naming Parquet, the options that do not apply refused in a sentence,
retrieval scored by MaxSim, and search's top k equal to the model's own similarity."""

import hashlib
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from sentence_transformers import MultiVectorEncoder

from core.cli import main
from core.data.stsb import stsb_corpus
from core.encoding.late.tokens import encode_multivector
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import evaluate_embeddings, paraphrase_task
from core.models.loading import load_model
from core.settings import Settings
from tests.references import assert_top_order

TEXTS = ["What is a cat?", "A cat sleeps on the warm rug.", "", "Stocks fell sharply today, again!"]


@pytest.fixture(scope="module")
def folder(late_folders):
    return str(late_folders["colbert"])


def _input(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("role", ["document", "query"])
def test_embed_writes_each_lines_tokens_and_token_vectors_as_encode_gives_them(folder, tmp_path, role):
    out = tmp_path / "out.parquet"
    assert main(["embed", "--model", folder, "--pooling", "default", "--role", role, "--input",
                 str(_input(tmp_path)), "--output", str(out)]) == 0
    table = pq.read_table(out)
    assert table.column_names == ["row_id", "text", "tokens", "token_vectors"]
    assert table.column("text").to_pylist() == TEXTS
    digests = [hashlib.blake2b(text.encode(), digest_size=8).hexdigest() for text in TEXTS]
    assert table.column("row_id").to_pylist() == [f"{d}:{digests[:i].count(d)}" for i, d in enumerate(digests)]
    reference = MultiVectorEncoder(folder, device="cpu", local_files_only=True)
    expected = (reference.encode_query if role == "query" else reference.encode_document)(TEXTS)
    tokens = [text.tokens for text in encode_multivector(load_model(folder, "cpu"), TEXTS, role=role)]
    for row, (theirs, words) in enumerate(zip(expected, tokens)):
        vectors = np.asarray(table.column("token_vectors")[row].as_py(), np.float32)
        assert vectors.dtype == np.float32 and table.schema.field("token_vectors").type.value_type.value_type == "float"
        np.testing.assert_allclose(vectors, theirs.numpy(), atol=1e-6)
        assert tuple(table.column("tokens")[row].as_py()) == words
    assert ("[MASK]" in table.column("tokens")[0].as_py()) == (role == "query")  # the query expansion


@pytest.mark.parametrize("output", ["x.npy", "x.npz", "x"])
def test_an_output_other_than_parquet_is_refused_naming_parquet(folder, tmp_path, capsys, output):
    assert main(["embed", "--model", folder, "--pooling", "default", "--input", str(_input(tmp_path)),
                 "--output", str(tmp_path / output)]) == 1
    said = capsys.readouterr().err
    assert "late-interaction model" in said and "write them as .parquet (text, tokens and token_vectors" in said
    assert said.count("\n") == 1 and not (tmp_path / output).exists()


REASON = "a late-interaction model, whose token vectors are its own encode_query and encode_document's"


@pytest.mark.parametrize("command", ["embed", "search", "evaluate"])
@pytest.mark.parametrize("options, said", [
    (["--pooling", "mean"], f"--pooling mean does not apply to {REASON}; leave it out."),
    (["--layer", "1"], f"--layer does not apply to {REASON}; leave it out."),
    (["--truncate-dim", "8"], f"--truncate-dim does not apply to {REASON}; leave it out."),
    (["--layer", "1", "--truncate-dim", "8"], f"--layer and --truncate-dim do not apply to {REASON}; leave them out."),
])
def test_options_that_do_not_apply_are_refused_in_one_sentence(folder, tmp_path, capsys, command, options, said):
    pooling = ["--pooling", "default"] if "--pooling" not in options else []
    argv = {"embed": ["embed", "--input", str(_input(tmp_path)), "--output", str(tmp_path / "x.parquet")],
            "search": ["search", "--query", "a cat", "--corpus", str(_input(tmp_path))],
            "evaluate": ["evaluate", "retrieval", "--split", "dev"]}[command]
    assert main([*argv, "--model", folder, *pooling, *options]) == 1
    assert capsys.readouterr().err == f"error: {said}\n"


def test_quantize_is_refused_for_token_vectors(folder, capsys):
    assert main(["evaluate", "retrieval", "--model", folder, "--split", "dev", "--quantize", "int8"]) == 1
    assert "--quantize does not apply to a late-interaction model" in capsys.readouterr().err


def test_search_lists_the_top_k_by_the_models_own_similarity(folder, tmp_path, capsys):
    corpus = list(stsb_corpus()[:300])
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(corpus) + "\n", encoding="utf-8")
    assert main(["search", "--model", folder, "--pooling", "default", "--query", "A man plays the guitar.",
                 "--corpus", str(path), "--k", "5"]) == 0
    found = json.loads(capsys.readouterr().out)
    reference = MultiVectorEncoder(folder, device="cpu", local_files_only=True)
    scores = reference.similarity(reference.encode_query(["A man plays the guitar."]),
                                  reference.encode_document(corpus)).numpy()[0]
    listed = [row for row in found["results"] if row["ranker"] == folder]
    assert_top_order([row["index"] for row in listed], scores, 5)  # near ties (random weights) in either order
    np.testing.assert_allclose([row["score"] for row in listed], -np.sort(-scores)[:5], rtol=1e-5)
    assert {row["ranker"] for row in found["results"]} == {folder, "TF-IDF", "bag of words", "BM25"}


def test_evaluate_retrieval_prints_the_usual_json_by_maxsim(folder, capsys):
    assert main(["evaluate", "retrieval", "--model", folder, "--pooling", "default", "--split", "dev",
                 "--k", "1,10"]) == 0
    printed = json.loads(capsys.readouterr().out)
    model = load_model(folder, "cpu")
    task = paraphrase_task("dev")
    expected = evaluate_embeddings(model, task, Settings(model_id=model.model_id), ks=(1, 10))
    assert printed == {**{shown_name(key): value for key, value in expected.metrics.items()},
                       "queries": len(task.queries), "corpus": len(task.corpus), "score": "maxsim"}
    assert set(printed) >= {"recall@1", "recall@10", "mrr@10", "ndcg@10"}
