import json

import pytest

from core.cli import main
from core.models.catalog import catalog
from core.training.finetune import delete_model, finetuned_dir, read_card


@pytest.fixture(autouse=True)
def small_dev(monkeypatch):
    from core.data.stsb import load_stsb

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])


def test_finetune_prints_the_contract_json_and_the_model_joins_the_catalog(tiny_bert_folder, tmp_path, capsys):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("a,b,score\n" + "".join(f"text {i},other {i},{i % 6}\n" for i in range(8)), encoding="utf-8")
    code = main(["finetune", "--model", str(tiny_bert_folder), "--data", str(pairs), "--objective", "cosine",
                 "--batch-size", "4", "--max-steps", "2", "--lr", "1e-3", "--seed", "3", "--name", "cli-tiny"])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)  # stdout holds the JSON object and nothing else
    assert set(result) == {"model", "path", "before", "after", "steps", "seconds"}
    assert result["model"] == "cli-tiny" and result["steps"] == 2
    assert result["path"] == str(finetuned_dir() / "cli-tiny")
    card = read_card("cli-tiny")
    assert result["after"]["spearman"] == card["after"]["spearman"]
    assert card["data"] == "pairs.csv" and card["parameters"]["seed"] == 3
    assert "cli-tiny" in [entry.id for entry in catalog()]
    delete_model("cli-tiny")


@pytest.mark.parametrize("lr", ["0", "-0.001"])
def test_a_learning_rate_of_zero_or_below_is_a_bad_argument(lr, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["finetune", "--model", "all-MiniLM-L6-v2", "--data", "stsb", "--objective", "cosine", "--lr", lr])
    assert exit_info.value.code == 2
    assert "--lr: must be above 0" in capsys.readouterr().err


def test_a_bad_pairs_file_and_an_unavailable_model_fail_with_one_line(tmp_path, capsys):
    pairs = tmp_path / "gaps.csv"
    pairs.write_text("a,b,score\nx,y,1\nz,,2\n", encoding="utf-8")
    assert main(["finetune", "--model", "all-MiniLM-L6-v2", "--data", str(pairs), "--objective", "cosine"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no value in column 'b' (row 3)" in err
    assert main(["finetune", "--model", "bert-base-uncased", "--data", "stsb", "--objective", "mnrl"]) == 1
    assert "bert-base-uncased is not available" in capsys.readouterr().err
