"""Input files of a scaled run and the dataset manifest: checked before any Ray work starts (no Ray needed)."""

import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from core.cli import main
from core.data.datasets import Manifest, read_manifest, write_manifest
from core.scale.inputs import filesystem, input_files
from core.settings import Settings


def test_a_glob_finds_txt_and_parquet_files_in_path_order(tmp_path):
    (tmp_path / "b.txt").write_text("x\n")
    pq.write_table(pa.table({"text": ["y"]}), tmp_path / "a.parquet")
    (tmp_path / "notes.md").write_text("not matched by the glob")
    _, files = input_files(str(tmp_path / "*.*t*"), "text")
    assert [(f.file_format, f.name) for f in files] == [("parquet", "a"), ("text", "b")]


def test_a_uri_names_the_same_files_as_a_plain_path(tmp_path):
    (tmp_path / "a.txt").write_text("x\n")
    assert [f.name for f in input_files(f"file://{tmp_path}/*.txt", "text")[1]] == ["a"]


@pytest.mark.parametrize("table, column, says", [
    (pa.table({"body": ["a"]}), "text", "has no column “text” (its columns: body); name the text column"),
    (pa.table({"text": [1, 2]}), "text", "holds int64, not text"),
    (pa.table({"text": ["a", None, None]}), "text", "2 row(s)"),
    (pa.table({"body": ["a"], "text": ["b"]}), "body", "beside the text column “body”"),
    (pa.table({"text": ["a"], "vector": [[1.0]]}), "text", "already has a column “vector”"),
])
def test_a_parquet_input_that_cannot_be_embedded_is_refused_in_one_sentence(tmp_path, table, column, says):
    pq.write_table(table, tmp_path / "in.parquet")
    with pytest.raises(ValueError) as err:
        input_files(str(tmp_path / "in.parquet"), column)
    assert says in str(err.value)


def test_each_file_has_its_row_count_and_output_columns_before_any_ray_work(tmp_path):
    # Ray's read_text splits as str.splitlines does and keeps empty lines
    (tmp_path / "a.txt").write_text("one\n\nthree\r\nfour\u2028five", encoding="utf-8")
    pq.write_table(pa.table({"id": [1, 2, 3], "body": ["x", "y", "z"]}), tmp_path / "b.parquet", row_group_size=2)
    _, (text, parquet) = input_files(str(tmp_path / "*"), "body")
    assert text.rows == len("one\n\nthree\r\nfour\u2028five".splitlines()) == 5
    assert text.schema == pa.schema([("text", pa.string())])
    assert parquet.rows == 3 and parquet.schema == pa.schema([("id", pa.int64()), ("text", pa.string())])


def test_a_relative_path_is_made_absolute_for_ray_workers_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("x\n")
    assert input_files("a.txt", "text")[1][0].path == str(tmp_path / "a.txt")


def test_what_ray_data_cannot_read_together_is_refused_in_one_sentence(tmp_path):
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9\n")
    with pytest.raises(ValueError, match=r"bad.txt is not UTF-8 text \(invalid continuation byte at byte 3\)"):
        input_files(str(tmp_path / "bad.txt"), "text")
    pq.write_table(pa.table({"text": ["a"], "path": ["/x"]}), tmp_path / "p.parquet")
    with pytest.raises(ValueError, match="has a column “path”, the name Ray Data gives each row's file"):
        input_files(str(tmp_path / "p.parquet"), "text")
    (tmp_path / "x").mkdir()
    pq.write_table(pa.table({"text": ["a"], "n": [1]}), tmp_path / "x" / "1.parquet")
    pq.write_table(pa.table({"text": ["b"], "n": ["one"]}), tmp_path / "x" / "2.parquet")
    with pytest.raises(ValueError, match="The column “n” holds int64 in .*1.parquet but string in .*2.parquet"):
        input_files(str(tmp_path / "x" / "*.parquet"), "text")


def test_no_match_and_two_inputs_with_one_output_name_are_refused(tmp_path):
    with pytest.raises(ValueError, match="No file matches"):
        input_files(str(tmp_path / "*.txt"), "text")
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "part.txt").write_text("a\n")
    with pytest.raises(ValueError, match="the same output folder “part”"):
        input_files(str(tmp_path / "*" / "part.txt"), "text")


def test_the_manifest_round_trips_every_setting_but_the_device(tmp_path):
    settings = Settings(model_id="m", pooling="mean", layer=2, normalize=True, max_length=64, device="cpu",
                        truncate_dim=16, prompt="query: ")
    fs, folder = filesystem(str(tmp_path))
    write_manifest(fs, folder, Manifest(settings))
    assert read_manifest(fs, folder) == Manifest(settings.with_(device="auto"))
    assert read_manifest(fs, str(tmp_path / "missing")) is None


def test_without_ray_the_command_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    (tmp_path / "a.txt").write_text("one\n")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--engine", "ray",
                 "--input", str(tmp_path / "a.txt"), "--output", str(tmp_path / "out")]) == 1
    assert "Ray is not installed; install it with `make scale`" in capsys.readouterr().err
