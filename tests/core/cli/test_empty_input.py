"""An input file that holds no texts (0 bytes, or a table of no rows) is refused by every command that reads texts from
a file, in one sentence (core.data.corpus.NoTexts) and with exit status 1, before a model loads and without writing
an output; a file of blank lines is a file of empty texts."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from core.cli import main
from core.scale.inputs import input_files


@pytest.fixture
def empty(tmp_path):
    def make(name: str = "empty.txt"):
        path = tmp_path / name
        path.write_bytes(b"")
        return path

    return make


def refused(capsys, argv: list[str], path) -> None:
    assert main([str(arg) for arg in argv]) == 1
    assert capsys.readouterr().err == f"error: {path} holds no texts.\n"


@pytest.mark.parametrize("model, output", [("all-MiniLM-L6-v2", "out.npy"), ("all-MiniLM-L6-v2", "out.parquet"),
                                           ("splade-tiny", "out.npz")])
def test_embed_refuses_an_empty_file_and_writes_nothing(tmp_path, empty, capsys, model, output):
    source = empty()
    refused(capsys, ["embed", "--model", model, "--pooling", "default", "--input", source,
                     "--output", tmp_path / output], source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt"]


def test_a_file_of_one_blank_line_is_one_empty_text(tmp_path, minilm):
    from core.encoding.encoder import encode

    source = tmp_path / "blank.txt"
    source.write_text("\n", encoding="utf-8")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--input", str(source),
                 "--output", str(tmp_path / "out.npy")]) == 0
    vectors = np.load(tmp_path / "out.npy")
    assert vectors.shape == (1, 384)
    np.testing.assert_allclose(vectors, encode(minilm, [""]).vectors, atol=1e-6)


def test_search_and_rerank_refuse_an_empty_file(empty, capsys, reranker_folder):
    source = empty()
    refused(capsys, ["search", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--query", "a river bank",
                     "--corpus", source], source)
    refused(capsys, ["rerank", "--model", reranker_folder, "--query", "a river bank", "--input", source], source)


def test_rerank_still_says_a_file_of_blank_lines_has_nothing_to_rerank(tmp_path, capsys, reranker_folder):
    source = tmp_path / "blank.txt"
    source.write_text("\n \n", encoding="utf-8")
    assert main(["rerank", "--model", str(reranker_folder), "--query", "q", "--input", str(source)]) == 1
    assert "holds no text to rerank" in capsys.readouterr().err


def test_project_refuses_an_empty_file_and_a_parquet_file_of_no_rows(tmp_path, empty, capsys):
    texts, vectors = empty("texts.txt"), tmp_path / "vectors.npy"
    np.save(vectors, np.zeros((0, 4), dtype=np.float32))
    refused(capsys, ["project", "--input", vectors, texts, "--output", tmp_path / "map.csv"], texts)
    table = tmp_path / "no-rows.parquet"  # what `embed --engine ray` writes for an empty file among others
    pq.write_table(pa.table({"text": pa.array([], pa.string()), "vector": pa.array([], pa.list_(pa.float32()))}),
                   table)
    refused(capsys, ["project", "--input", table, "--output", tmp_path / "map.csv"], table)
    assert not (tmp_path / "map.csv").exists()


@pytest.mark.parametrize("content", [b"", b"\n\n"])
def test_finetune_refuses_a_pairs_file_without_a_text(tmp_path, capsys, content):
    pairs = tmp_path / "pairs.csv"
    pairs.write_bytes(content)
    refused(capsys, ["finetune", "--model", "all-MiniLM-L6-v2", "--data", pairs, "--objective", "cosine"], pairs)


def test_ray_input_files_that_are_all_empty_are_refused_before_ray_starts(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"")
    pq.write_table(pa.table({"text": pa.array([], pa.string())}), tmp_path / "b.parquet")
    with pytest.raises(ValueError, match=r"^.*\*\.\* holds no texts\.$"):
        input_files(str(tmp_path / "*.*"), "text")
    (tmp_path / "c.txt").write_text("\n")  # one empty text: the set is embedded, the empty files get empty folders
    assert [f.rows for f in input_files(str(tmp_path / "*.*"), "text")[1]] == [0, 0, 1]


def test_embed_with_ray_refuses_empty_inputs_without_starting_ray(tmp_path, empty, capsys, monkeypatch):
    import core.scale.ray_embed as ray_embed

    def no_ray(*_, **__):
        raise AssertionError("Ray was started")

    monkeypatch.setattr("core.scale.cluster.import_ray", lambda: None)  # Ray is an extra: the test needs none
    monkeypatch.setattr(ray_embed, "import_ray", no_ray)
    monkeypatch.setattr(ray_embed, "connect", no_ray)
    source, out = empty(), tmp_path / "out"
    refused(capsys, ["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--engine", "ray",
                     "--input", source, "--output", out], source)
    assert not out.exists()
