"""`python -m core check-store`: the Parquet `core embed` writes of the messy labelled texts agrees with its model
(the issue's JSON keys), the same file checked against another model says so, and every bad input is one line on
stderr with exit status 2."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from core.cli import main
from tests.messy import messy

KEYS = {"sample", "median_cosine", "p5_cosine", "agree_share", "overlap_at_10", "verdict"}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("check-store")
    texts = pd.read_csv(messy("labelled.csv"))["text"].fillna("").astype(str).str.replace("\n", " ")
    (folder / "texts.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(folder / "texts.txt"),
                 "--output", str(folder / "stored.parquet")]) == 0
    return folder / "stored.parquet"


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check-store", "--device", "cpu", "--sample", "60", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_index_written_by_embed_agrees_with_its_model(stored, capsys):
    code, out, _ = check(capsys, "--model", "all-MiniLM-L6-v2", "--input", str(stored), "--json")
    record = json.loads(out)
    assert code == 0 and KEYS <= set(record)
    assert record["verdict"] == "matches" and record["agree_share"] == 1.0 and record["sample"] == 60
    assert record["skipped"] > 0  # the repeated texts and blank lines are checked once, or not at all


def test_the_same_index_against_another_model_says_so_in_words(stored, capsys):
    code, out, _ = check(capsys, "--model", "paraphrase-MiniLM-L3-v2", "--input", str(stored))
    assert code == 0 and out.startswith("The stored vectors are not paraphrase-MiniLM-L3-v2's")
    assert "row " in out  # the rows unlike the model are listed


@pytest.mark.parametrize("name, content, says", [
    ("texts.txt", b"a\nb\n", "is not a .parquet file"),
    ("missing.parquet", None, "does not exist"),
    ("broken.parquet", b"PAR1 not really", "could not be read as Parquet"),
])
def test_bad_input_is_one_line_with_exit_status_2(tmp_path, capsys, name, content, says):
    if content is not None:
        (tmp_path / name).write_bytes(content)
    code, out, err = check(capsys, "--model", "all-MiniLM-L6-v2", "--input", str(tmp_path / name))
    assert code == 2 and out == "" and says in err and err.count("\n") == 1, err
