"""Why a reranker scored a pair, checked where it can be: the attributions are Captum's LayerIntegratedGradients run
here on the same network, input and baseline; the score is CrossEncoder.predict's, the logit the network's raw output;
the attributions sum to the logit's change from the baseline within the gap; the deletion curves are the network's
scores of the shortened inputs. On the tiny CrossEncoder saved by sentence-transformers (tests/sparse.py)."""

import numpy as np
import pytest
import torch
from sentence_transformers import CrossEncoder

from core.analysis.rerank_attribution import (
    GAP_SHARE,
    Deletion,
    RerankComparison,
    compare_texts,
    deletion_check,
    explain_rerank,
    explain_with_checks,
    step_counts,
)
from core.models.reranker import load_reranker
from tests.references import plain_captum_pair

QUERY = "A man plays the guitar."
TEXT = "Someone is playing an acoustic guitar on a small stage."
OTHER = "The stock market fell sharply today."


@pytest.fixture(scope="module")
def reranker(reranker_folder):
    return load_reranker(str(reranker_folder), "cpu")


@pytest.fixture(scope="module")
def reference(reranker_folder):
    return CrossEncoder(str(reranker_folder), device="cpu")


def _network(reference):
    transformer = reference[0]
    return transformer.auto_model, transformer.tokenizer


def _raw_logit(reference, input_ids, token_type_ids=None) -> float:
    network, _ = _network(reference)
    with torch.no_grad():
        return float(network(input_ids=input_ids, token_type_ids=token_type_ids).logits[0, 0])


def test_the_attributions_are_captums_and_the_score_the_logit_and_the_sum_check_out(reranker, reference):
    found = explain_rerank(reranker, QUERY, TEXT)
    expected, encoded, baseline = plain_captum_pair(reference, QUERY, TEXT, found.steps)
    assert found.tokens == reference[0].tokenizer.convert_ids_to_tokens(encoded["input_ids"][0])
    np.testing.assert_allclose(found.attributions, expected, atol=1e-6)
    assert found.score == pytest.approx(float(reference.predict([[QUERY, TEXT]])[0]), abs=1e-6)
    assert found.logit == pytest.approx(_raw_logit(reference, encoded["input_ids"], encoded["token_type_ids"]),
                                        abs=1e-5)
    assert found.baseline_logit == pytest.approx(_raw_logit(reference, baseline, encoded["token_type_ids"]), abs=1e-5)
    assert found.attributions.sum() - found.change == pytest.approx(found.gap, abs=1e-6)
    assert found.converged and abs(found.gap) < GAP_SHARE * abs(found.change)
    assert found.steps in step_counts() and not found.truncated
    assert all(found.attributions[i] == 0 for i in found.positions("special"))  # the baseline keeps them


def test_the_parts_are_the_query_and_the_text_as_the_tokenizer_splits_them(reranker, reference):
    found = explain_rerank(reranker, QUERY, TEXT)
    _, tokenizer = _network(reference)
    assert [found.tokens[i] for i in found.positions("query")] == tokenizer.tokenize(QUERY)
    assert [found.tokens[i] for i in found.positions("text")] == tokenizer.tokenize(TEXT)
    assert found.parts[0] == found.parts[-1] == "special"
    frame = found.frame()
    assert list(frame.columns) == ["position", "token", "part", "attribution", "share"]
    assert frame["share"].abs().sum() == pytest.approx(1.0)
    record = found.record()
    assert {"method", "score", "logit", "baseline_logit", "tokens", "attributions", "gap", "steps"} <= set(record)
    assert record["method"] == "ig" and len(record["attributions"]) == len(record["tokens"])


def test_steps_are_raised_until_the_gap_is_small_or_the_cap_is_said(reranker):
    assert step_counts() == [16, 32, 64, 128, 256]
    assert step_counts(16, 40) == [16, 32, 40]
    fixed = explain_rerank(reranker, QUERY, TEXT, steps=4)
    assert fixed.steps == 4
    capped = explain_rerank(reranker, QUERY, TEXT, max_steps=2)
    assert capped.steps == 2 and capped.converged == (abs(capped.gap) < GAP_SHARE * abs(capped.change))
    with pytest.raises(ValueError, match="at least 2 steps"):
        explain_rerank(reranker, QUERY, TEXT, steps=1)


def test_a_text_longer_than_the_reranker_reads_is_cut_and_said(reranker, reference):
    long = " ".join(["guitar music on a stage"] * 200)
    found = explain_rerank(reranker, QUERY, long)
    assert found.truncated and len(found.tokens) == reference.max_seq_length
    assert found.score == pytest.approx(float(reference.predict([[QUERY, long]])[0]), abs=1e-6)
    assert not explain_rerank(reranker, QUERY, TEXT).truncated


@pytest.mark.parametrize("query, text, said", [("  ", TEXT, "The query is empty"), (QUERY, "", "The text is empty")])
def test_empty_input_is_one_sentence(reranker, query, text, said):
    with pytest.raises(ValueError, match=said):
        explain_rerank(reranker, query, text)


def test_the_deletion_curves_are_the_networks_scores_of_the_shortened_input(reranker, reference):
    found = explain_rerank(reranker, QUERY, TEXT)
    check = deletion_check(reranker, found, orders=3, seed=7)
    text = found.positions("text")
    assert check.removed.tolist() == list(range(len(text) + 1)) and check.random.shape == (3, len(text) + 1)
    full = float(reference.predict([[QUERY, TEXT]])[0])
    assert check.attributed[0] == pytest.approx(full, abs=1e-5) and np.allclose(check.random[:, 0], full, atol=1e-5)
    ranked = sorted(text, key=lambda i: -found.attributions[i])
    encoded = reference.tokenizer(QUERY, TEXT, return_tensors="pt")
    for count in (1, 3, len(text)):
        keep = [i for i in range(len(found.tokens)) if i not in ranked[:count]]
        logit = _raw_logit(reference, encoded["input_ids"][:, keep], encoded["token_type_ids"][:, keep])
        assert check.attributed[count] == pytest.approx(float(torch.sigmoid(torch.tensor(logit))), abs=1e-5)
    again = deletion_check(reranker, found, orders=3, seed=7)
    np.testing.assert_array_equal(again.random, check.random)  # seeded
    assert len(check.frame()) == len(text) + 1


def test_the_verdict_says_when_an_explanation_is_no_better_than_random():
    removed = np.arange(5)
    falling, flat = np.array([0.9, 0.5, 0.3, 0.2, 0.1]), np.array([0.9, 0.85, 0.8, 0.7, 0.1])
    good = Deletion(removed, falling, np.stack([flat, flat - 0.02]))
    assert good.area > 0 and good.better_than_random and good.verdict().startswith("Faithful")
    bad = Deletion(removed, flat, np.stack([falling, flat]))
    assert bad.area < 0 and not bad.better_than_random and bad.verdict().startswith("No better than random")
    tie = Deletion(removed, flat, np.stack([flat]))
    assert tie.area == 0 and not tie.better_than_random


def test_the_difference_of_two_texts_is_split_over_both_inputs(reranker):
    compared = compare_texts(reranker, QUERY, TEXT, OTHER)
    assert isinstance(compared, RerankComparison) and compared.same_query
    frame = compared.frame()
    total = frame["attribution"].sum() + compared.baseline_difference + compared.gap
    assert total == pytest.approx(compared.logit_difference, abs=1e-5)
    assert set(frame["part"]) >= {"query", "first text", "second text"}
    np.testing.assert_allclose(compared.query_difference(),
                               compared.first.attributions[compared.first.positions("query")]
                               - compared.second.attributions[compared.second.positions("query")])


def test_the_pages_bundle_has_the_pair_its_check_and_the_comparison(reranker):
    seen = []
    bundle = explain_with_checks(reranker, QUERY, TEXT, versus=OTHER, progress=lambda done, total: seen.append(done))
    assert seen == [1, 2, 3] and bundle.versus is not None and bundle.versus.second.text == OTHER
    assert explain_with_checks(reranker, QUERY, TEXT).versus is None
