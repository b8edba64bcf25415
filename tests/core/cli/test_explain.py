import json

import numpy as np
import pytest

from core.cli import main
from core.encoding.encoder import encode

A, B = "A man plays the guitar.", "Someone is strumming a guitar."


def _run(capsys, *extra: str) -> dict:
    assert main(["explain", "--model", "all-MiniLM-L6-v2", "--a", A, "--b", B, *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_exact_prints_tokens_the_matrix_and_a_sum_equal_to_the_score(capsys, minilm):
    out = _run(capsys, "--pooling", "mean", "--layer", "4")
    u, v = encode(minilm, [A, B], pooling="mean", layer=4).vectors.astype(np.float64)
    assert out["score"] == pytest.approx(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), abs=1e-5)
    matrix = np.array(out["matrix"])
    assert matrix.shape == (len(out["tokens_a"]), len(out["tokens_b"]))
    assert out["sum"] == pytest.approx(out["score"], abs=1e-6) and matrix.sum() == pytest.approx(out["sum"], abs=1e-5)
    assert out["shared"] + out["specific"] == pytest.approx(out["score"], abs=1e-9)


def test_ig_prints_attributions_and_the_completeness_error(capsys):
    out = _run(capsys, "--pooling", "cls", "--method", "ig", "--steps", "32")
    assert len(out["attributions_a"]) == len(out["tokens_a"]) and out["steps"] == 32
    assert out["completeness_error"] < 0.05


def test_a_pooling_without_an_exact_split_says_to_use_ig(capsys):
    assert main(["explain", "--model", "all-MiniLM-L6-v2", "--pooling", "cls", "--a", A, "--b", B]) == 1
    err = capsys.readouterr().err
    assert "no split over token pairs" in err and "--method ig" in err and err.count("\n") == 1


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["explain", "--model", "m", "--pooling", "mean", "--a", A, "--b", B, "--steps", "0"])
    assert stop.value.code == 2
