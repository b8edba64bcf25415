import json

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer, util

from core.cli import main
from core.models.packages import packaged_minilm_folder

CORPUS = ["A man plays the guitar.", "The stock market fell sharply.", "A cat sleeps on the sofa.",
          "Someone is strumming a guitar on stage.", "Interest rates rose again."]


def test_search_ranks_the_corpus_as_sentence_transformers_semantic_search_does(tmp_path, capsys):
    corpus_file = tmp_path / "corpus.txt"
    corpus_file.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    assert main(["search", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--query", "guitar music",
                 "--corpus", str(corpus_file), "--k", "3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["query"], printed["k"], printed["corpus"]) == ("guitar music", 3, 5)
    model = [row for row in printed["results"] if row["ranker"] == "all-MiniLM-L6-v2"]
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    expected = util.semantic_search(reference.encode(["guitar music"]), reference.encode(CORPUS), top_k=3)[0]
    assert [row["index"] for row in model] == [hit["corpus_id"] for hit in expected]
    np.testing.assert_allclose([row["score"] for row in model], [hit["score"] for hit in expected], atol=1e-5)
    assert {row["ranker"] for row in printed["results"]} == {"all-MiniLM-L6-v2", "TF-IDF", "bag of words", "BM25"}


def test_search_on_a_sparse_model_ranks_by_its_own_score(tmp_path, capsys, sparse_folders):
    from sentence_transformers import SparseEncoder

    corpus_file = tmp_path / "corpus.txt"
    corpus_file.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    folder = str(sparse_folders["inference-free"])
    assert main(["search", "--model", folder, "--pooling", "default", "--query", "guitar music", "--corpus",
                 str(corpus_file), "--k", "5"]) == 0
    rows = [row for row in json.loads(capsys.readouterr().out)["results"] if row["ranker"] == folder]
    reference = SparseEncoder(folder, device="cpu")
    scores = reference.similarity(reference.encode_query(["guitar music"]), reference.encode_document(CORPUS))[0]
    assert [row["score"] for row in rows] == pytest.approx(sorted(scores.tolist(), reverse=True), rel=1e-5)


def test_an_empty_query_is_one_line_and_status_1(capsys):
    assert main(["search", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--query", "  "]) == 1
    assert capsys.readouterr().err.strip() == "error: The query is empty; give --query a text."


@pytest.mark.parametrize("k", ["0", "x"])
def test_a_bad_k_is_an_argument_error(k, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["search", "--model", "m", "--pooling", "mean", "--query", "q", "--k", k])
    assert stop.value.code == 2 and "--k" in capsys.readouterr().err
