"""`python -m core explain --model RERANKER …`: the JSON of the reranker's integrated gradients (the contract's fields,
the numbers core.analysis.rerank_attribution gives, the score CrossEncoder.predict's), --versus, and the refusals in
one sentence each."""

import json

import pytest
from sentence_transformers import CrossEncoder

from core.cli import main
from core.kinds import KINDS

QUERY, TEXT, OTHER = "A man plays the guitar.", "Someone is strumming a guitar.", "A cat sleeps on the rug."


def _run(capsys, folder, *extra: str) -> dict:
    assert main(["explain", "--model", str(folder), "--a", QUERY, "--b", TEXT, *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_reranker_prints_its_integrated_gradients(capsys, reranker_folder):
    out = _run(capsys, reranker_folder)
    assert {"method", "score", "logit", "baseline_logit", "tokens", "attributions", "gap", "steps"} <= set(out)
    assert out["method"] == "ig" and len(out["attributions"]) == len(out["tokens"])
    assert out["tokens"][0] == "[CLS]" and out["tokens"][-1] == "[SEP]"  # special tokens included, in order
    reference = CrossEncoder(str(reranker_folder), device="cpu")
    assert out["score"] == pytest.approx(float(reference.predict([[QUERY, TEXT]])[0]), abs=1e-6)
    assert sum(out["attributions"]) - (out["logit"] - out["baseline_logit"]) == pytest.approx(out["gap"], abs=1e-6)
    assert abs(out["gap"]) < 0.01 * abs(out["logit"] - out["baseline_logit"]) and out["steps"] in (16, 32, 64, 128, 256)
    assert out["truncated"] is False and "versus" not in out


def test_steps_fix_the_count_and_versus_adds_the_second_text(capsys, reranker_folder):
    out = _run(capsys, reranker_folder, "--steps", "8", "--versus", OTHER)
    assert out["steps"] == 8 and out["versus"]["steps"] == 8
    versus = out["versus"]
    assert versus["logit_difference"] == pytest.approx(out["logit"] - versus["logit"], abs=1e-9)
    assert versus["baseline_difference"] == pytest.approx(out["baseline_logit"] - versus["baseline_logit"], abs=1e-9)
    assert len(versus["attributions"]) == len(versus["tokens"])


def test_a_long_text_is_cut_and_said(capsys, reranker_folder):
    long = " ".join(["guitar music on a stage"] * 200)
    assert main(["explain", "--model", str(reranker_folder), "--a", QUERY, "--b", long]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["truncated"] is True
    assert captured.err.count("\n") == 1 and "so it cut them" in captured.err


@pytest.mark.parametrize("extra, said", [
    (["--pooling", "mean"], "--pooling mean does not apply to a reranker"),
    (["--layer", "1"], "--layer does not apply to a reranker"),
    (["--method", "exact"], "--method exact does not apply to a reranker"),
    (["--attribution-layer", "0"], "--attribution-layer does not apply to a reranker")])
def test_options_that_do_not_apply_are_refused_in_one_sentence(capsys, reranker_folder, extra, said):
    assert main(["explain", "--model", str(reranker_folder), "--a", QUERY, "--b", TEXT, *extra]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "leave it out" in err
    if extra[0] in ("--pooling", "--layer"):  # the kind's own sentence
        assert err == f"error: {' '.join(extra) if extra[0] == '--pooling' else extra[0]} does not apply to " \
                      f"{KINDS['reranker'].article}{KINDS['reranker'].why_refused}; leave it out.\n"


def test_an_empty_text_is_one_sentence(capsys, reranker_folder):
    assert main(["explain", "--model", str(reranker_folder), "--a", QUERY, "--b", "  "]) == 1
    assert capsys.readouterr().err == "error: The text is empty; type one to explain the reranker's score.\n"


def test_versus_is_refused_for_a_model_that_embeds(capsys, tiny_sentence_transformer_folder):
    assert main(["explain", "--model", str(tiny_sentence_transformer_folder), "--a", QUERY, "--b", TEXT,
                 "--versus", OTHER]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--versus applies to a reranker" in err
