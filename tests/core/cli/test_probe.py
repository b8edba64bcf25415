"""`python -m core probe`: each layer's row equals the probe written out apart (tests/probing.py) on that layer's
pooled vectors computed here from the network's hidden states, and its untrained baseline the same probe on the
architecture's with random weights drawn by transformers; the keys of --json; a file with blank labels and repeated
texts (../shared/data/messy/) probed on its labelled rows, the blank ones counted; every bad input one line on
stderr with exit status 2; a sparse model probed on its output alone, and said so."""

import json

import numpy as np
import pandas as pd
import pytest

from core.analysis.probes import cross_validate
from core.cli import main
from core.data.stsb import stsb_sample
from tests.messy import messy
from tests.probing import mean_pooled, nested_cv, text_groups

SIZE = 150


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    sample = stsb_sample(SIZE, seed=5).rename(columns={"text": "sentence"})
    path = tmp_path_factory.mktemp("probe") / "genres.csv"
    sample.to_csv(path, index=False)
    return path, sample


def test_each_layers_row_is_the_probe_of_that_layers_pooled_vectors(table, capsys):
    path, sample = table
    assert main(["probe", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(path), "--text-column",
                 "sentence", "--label-column", "genre", "--layers", "0,3", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found) == {"layers", "majority", "classes", "n", "unlabelled", "left_out", "folds", "seed",
                          "untrained_note", "first_beyond_words"}
    assert found["n"] == SIZE and found["folds"] == 5 and found["seed"] == 0 and found["unlabelled"] == 0
    assert found["untrained_note"] == ""
    assert found["classes"] == list(dict.fromkeys(sample["genre"]))
    assert found["majority"] == pytest.approx(sample["genre"].value_counts().max() / SIZE)
    assert [row["layer"] for row in found["layers"]] == [0, 3]
    codes = np.asarray([found["classes"].index(g) for g in sample["genre"]])
    groups = text_groups(sample["sentence"])
    for row in found["layers"]:
        assert set(row) == {"layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "shuffled_accuracy",
                            "untrained_accuracy", "tfidf_accuracy", "mdl_bits", "uniform_bits", "compression"}
        expected, _ = nested_cv(mean_pooled(sample["sentence"].tolist(), row["layer"]), codes, groups)
        assert row["accuracy"] == pytest.approx(np.mean(expected), abs=1e-9)
        # the untrained baseline: the same probe (checked against the written-out one above) on the vectors of the
        # architecture with random weights that transformers draws
        untrained = cross_validate(mean_pooled(sample["sentence"].tolist(), row["layer"], untrained=True), codes,
                                   groups, 3)
        assert row["untrained_accuracy"] == pytest.approx(untrained.accuracy.mean(), abs=1e-9)
        assert row["untrained_accuracy"] < row["accuracy"]
        assert row["uniform_bits"] == pytest.approx(SIZE * np.log2(3))


def test_the_table_has_a_row_per_layer_and_the_facts_below(table, capsys):
    path, _ = table
    assert main(["probe", "--model", "paraphrase-MiniLM-L3-v2", "--device", "cpu", "--input", str(path),
                 "--text-column", "sentence", "--label-column", "genre"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["layer", "accuracy", "accuracy_low"]
    assert [line.split()[0] for line in lines[1:5]] == ["0", "1", "2", "3"]
    assert lines[5].startswith("majority ") and "folds 5 · seed 0" in lines[5]


def test_blank_labels_are_left_out_and_counted_and_repeated_texts_never_cross_a_fold(capsys):
    table = pd.read_csv(messy("labelled.csv"), dtype=str, keep_default_na=False)
    blank = table["genre"].str.strip() == ""
    assert main(["probe", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(messy("labelled.csv")),
                 "--label-column", "genre", "--layers", "3", "--json"]) == 0
    captured = capsys.readouterr()
    found = json.loads(captured.out)
    # forums holds one text, repeated: one text cannot sit in 5 folds, so the class is left out and said
    different = table[~blank].groupby("genre")["text"].nunique()
    small = different[different < 5]
    assert found["left_out"] == small.to_dict() and len(small) > 0
    probed = ~blank & ~table["genre"].isin(small.index)
    assert found["n"] == int(probed.sum()) and found["unlabelled"] == int(blank.sum()) > 0
    assert "" not in found["classes"] and set(found["classes"]) == set(table.loc[probed, "genre"])
    assert f"{int(blank.sum())} of the {len(table)} rows have a blank label" in captured.err
    labelled = table[probed]
    codes = np.asarray([found["classes"].index(g) for g in labelled["genre"]])
    expected, _ = nested_cv(mean_pooled(labelled["text"].tolist(), 3), codes, text_groups(labelled["text"]))
    assert found["layers"][0]["accuracy"] == pytest.approx(np.mean(expected), abs=1e-9)


@pytest.mark.parametrize("rows, options, said", [
    (None, ["--label-column", "topic"], "There is no column 'topic'"),
    ({"text": [f"t{i}" for i in range(12)], "label": ["a"] * 12}, [], "there is one class, “a”"),
    ({"text": [f"t{i}" for i in range(12)], "label": ["a"] * 9 + ["b"] * 3}, [], "“b” has 3"),
    ({"text": [], "label": []}, [], "holds no texts"),
    (None, ["--layers", "9"], "Layer 9 does not exist: all-MiniLM-L6-v2 has layers 0 to 6."),
    ({"text": [f"t{i}" for i in range(12)], "label": ["a"] * 6 + [""] * 6}, [], "there is one class, “a” (6 rows "
                                                                                 "with a blank label left out)"),
])
def test_bad_input_is_one_line_with_status_2(table, tmp_path, capsys, rows, options, said):
    path, _ = table
    if rows is not None:
        path = tmp_path / "in.csv"
        pd.DataFrame(rows).to_csv(path, index=False)
    options = options if "--label-column" in options else ["--label-column", "genre" if rows is None else "label",
                                                           *options]
    column = ["--text-column", "sentence"] if rows is None else []
    assert main(["probe", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(path), *column,
                 *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and said in err, err


def test_a_reranker_is_refused_in_one_line_with_status_2(table, reranker_folder, capsys):
    path, _ = table
    assert main(["probe", "--model", str(reranker_folder), "--input", str(path), "--text-column", "sentence",
                 "--label-column", "genre"]) == 2
    err = capsys.readouterr().err
    assert "is a reranker" in err and err.count("\n") == 1


def test_a_sparse_model_is_probed_on_its_output_and_says_so(table, sparse_folders, capsys):
    path, _ = table
    folder = str(sparse_folders["splade"])
    assert main(["probe", "--model", folder, "--input", str(path), "--text-column", "sentence", "--label-column",
                 "genre", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["layers"]) == 1 and "probed on its CSR rows" in captured.err
    assert main(["probe", "--model", folder, "--input", str(path), "--text-column", "sentence", "--label-column",
                 "genre", "--layers", "0"]) == 2
    assert "Leave the layers out" in capsys.readouterr().err
