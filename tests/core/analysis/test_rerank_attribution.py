"""Why a reranker scored a pair, checked where it can be: the attributions are Captum's LayerIntegratedGradients run
here on the same network, input and baseline; the score is CrossEncoder.predict's, the logit the network's raw output;
the attributions sum to the logit's change from the baseline within the gap; the deletion curves are the network's
scores of the shortened inputs. On the tiny CrossEncoder saved by sentence-transformers (tests/sparse.py)."""

import numpy as np
import pytest
import torch
from sentence_transformers import CrossEncoder

from core.analysis.rerank_attribution import (
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
    expected, encoded, baseline, delta = plain_captum_pair(reference, QUERY, TEXT, found.steps)
    assert found.tokens == reference[0].tokenizer.convert_ids_to_tokens(encoded["input_ids"][0])
    np.testing.assert_allclose(found.attributions, expected, atol=1e-6)
    assert found.score == pytest.approx(float(reference.predict([[QUERY, TEXT]])[0]), abs=1e-6)
    assert found.logit == pytest.approx(_raw_logit(reference, encoded["input_ids"], encoded["token_type_ids"]),
                                        abs=1e-5)
    assert found.baseline_logit == pytest.approx(_raw_logit(reference, baseline, encoded["token_type_ids"]), abs=1e-5)
    assert found.gap == pytest.approx(delta, abs=1e-6)  # Captum's own convergence delta
    assert found.converged
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
    with pytest.raises(ValueError, match="at least 2 steps"):
        explain_rerank(reranker, QUERY, TEXT, steps=1)


STEEP = 24  # every weight matrix scaled by this: the network bends, and 16 steps leave a gap of about 4%


@pytest.fixture(scope="module")
def steep_folder(reranker_folder, tmp_path_factory):
    """The tiny reranker made non-linear: every weight matrix of its network scaled up."""
    cross = CrossEncoder(str(reranker_folder), device="cpu")
    with torch.no_grad():
        for name, weights in cross[0].auto_model.named_parameters():
            if name.endswith(".weight") and weights.dim() == 2:
                weights.mul_(STEEP)
    folder = tmp_path_factory.mktemp("steep") / "reranker"
    cross.save(str(folder))
    return folder


def test_steps_are_raised_to_the_first_count_whose_captum_delta_is_under_1_percent(steep_folder):
    reference = CrossEncoder(str(steep_folder), device="cpu")
    found = explain_rerank(load_reranker(str(steep_folder), "cpu"), QUERY, TEXT)
    runs = {steps: plain_captum_pair(reference, QUERY, TEXT, steps) for steps in (16, 32, 64)}
    change = found.change
    shares = {steps: abs(run[3]) / abs(change) for steps, run in runs.items()}
    assert shares[16] > 0.01  # the raising runs: 16 steps are not enough here
    chosen = next(steps for steps, share in shares.items() if share < 0.01)
    assert found.steps == chosen and found.converged
    np.testing.assert_allclose(found.attributions, runs[chosen][0], atol=1e-4 * abs(change))
    assert found.gap == pytest.approx(runs[chosen][3], abs=1e-4 * abs(change))


def test_with_no_gap_allowed_the_cap_is_reached_and_not_converged_said(steep_folder, monkeypatch):
    from core.analysis import rerank_attribution

    monkeypatch.setattr(rerank_attribution, "GAP_SHARE", 0.0)
    found = explain_rerank(load_reranker(str(steep_folder), "cpu"), QUERY, TEXT)
    assert found.steps == 256 and not found.converged and found.record()["converged"] is False


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


def test_the_random_orders_are_successive_permutations_of_the_seed_each_scored_by_the_network(reranker, reference):
    found = explain_rerank(reranker, QUERY, TEXT)
    check = deletion_check(reranker, found, orders=3, seed=7)
    text = found.positions("text")
    generator = np.random.default_rng(7)
    orders = [generator.permutation(text) for _ in range(3)]
    encoded = reference.tokenizer(QUERY, TEXT, return_tensors="pt")
    for row, order in enumerate(orders):
        for count in (1, len(text) // 2, len(text) - 1):
            keep = [i for i in range(len(found.tokens)) if i not in set(order[:count].tolist())]
            logit = _raw_logit(reference, encoded["input_ids"][:, keep], encoded["token_type_ids"][:, keep])
            assert check.random[row, count] == pytest.approx(float(torch.sigmoid(torch.tensor(logit))), abs=1e-5)
    assert not np.allclose(check.random[0], check.random[1]) and not np.allclose(check.random[1], check.random[2])


@pytest.mark.parametrize("tokens", [4, 8])
def test_the_area_between_the_curves_is_over_the_share_of_the_text_removed(tokens):
    """Falling straight from 1 to 0 against random orders that keep the score at 1: an area of one half, whatever the
    text's length."""
    removed = np.arange(tokens + 1)
    check = Deletion(removed, 1 - removed / tokens, np.ones((2, tokens + 1)))
    assert check.area == pytest.approx(0.5)


def test_an_explanation_one_random_order_beats_is_not_faithful():
    removed = np.arange(5)
    attributed = np.array([0.9, 0.5, 0.3, 0.2, 0.1])
    slower, faster = np.array([0.9, 0.85, 0.8, 0.7, 0.1]), np.array([0.9, 0.2, 0.1, 0.1, 0.1])
    check = Deletion(removed, attributed, np.stack([slower, slower, faster]))
    assert check.area > 0 and not check.better_than_random
    assert check.verdict().startswith("No better than random")


def test_the_verdict_says_when_an_explanation_is_no_better_than_random():
    removed = np.arange(5)
    falling, flat = np.array([0.9, 0.5, 0.3, 0.2, 0.1]), np.array([0.9, 0.85, 0.8, 0.7, 0.1])
    good = Deletion(removed, falling, np.stack([flat, flat - 0.02]))
    assert good.area > 0 and good.better_than_random and good.verdict().startswith("Faithful")
    bad = Deletion(removed, flat, np.stack([falling, flat]))
    assert bad.area < 0 and not bad.better_than_random and bad.verdict().startswith("No better than random")
    tie = Deletion(removed, flat, np.stack([flat]))
    assert tie.area == 0 and not tie.better_than_random


def test_the_difference_of_two_texts_is_split_over_both_inputs(steep_folder):
    """The frame's attributions sum to each side's (logit − baseline + gap), first's minus second's: with few steps on
    the bent network the gaps are large, so the identity's sign is seen."""
    seen = []
    compared = compare_texts(load_reranker(str(steep_folder), "cpu"), QUERY, TEXT, OTHER, steps=4,
                             progress=lambda done, total: seen.append((done, total)))
    assert isinstance(compared, RerankComparison) and compared.same_query
    assert seen == [(1, 2), (2, 2)] and compared.first.steps == compared.second.steps == 4
    frame = compared.frame()
    assert list(frame.columns) == ["part", "position", "token", "attribution"]
    tolerance = 1e-5 * abs(compared.logit_difference)
    assert abs(compared.gap) > 100 * tolerance
    total = frame["attribution"].sum() + compared.baseline_difference - compared.gap
    assert total == pytest.approx(compared.logit_difference, abs=tolerance)
    assert set(frame["part"]) >= {"query", "first text", "second text"}
    first, second = compared.first, compared.second
    query_rows = frame[frame["part"] == "query"]
    np.testing.assert_allclose(query_rows["attribution"], [first.attributions[i] - second.attributions[j] for i, j in
                                                           zip(first.positions("query"), second.positions("query"))])


def test_the_pages_bundle_has_the_pair_its_check_and_the_comparison(reranker):
    seen = []
    bundle = explain_with_checks(reranker, QUERY, TEXT, versus=OTHER,
                                 progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)] and bundle.versus is not None and bundle.versus.second.text == OTHER
    alone = explain_rerank(reranker, QUERY, TEXT)
    np.testing.assert_allclose(bundle.pair.attributions, alone.attributions, atol=1e-6)
    np.testing.assert_allclose(bundle.versus.first.attributions, alone.attributions, atol=1e-6)
    np.testing.assert_allclose(bundle.deletion.attributed, deletion_check(reranker, alone).attributed, atol=1e-6)
    seen.clear()
    assert explain_with_checks(reranker, QUERY, TEXT, progress=lambda done, total: seen.append((done, total))
                               ).versus is None
    assert seen == [(1, 2), (2, 2)]


def test_two_steps_and_one_random_order_are_the_least_taken(reranker):
    assert explain_rerank(reranker, QUERY, TEXT, steps=2).steps == 2
    assert explain_rerank(reranker, QUERY, TEXT, max_steps=2).steps == 2
    with pytest.raises(ValueError, match="at least 2 steps, not 1"):
        explain_rerank(reranker, QUERY, TEXT, steps=1)
    with pytest.raises(ValueError, match="must be at least 2, not 1"):
        explain_rerank(reranker, QUERY, TEXT, max_steps=1)
    explained = explain_rerank(reranker, QUERY, TEXT, steps=2)
    deletion = deletion_check(reranker, explained, orders=1)
    assert deletion.random.shape == (1, len(explained.positions("text")) + 1)
    assert list(deletion.frame().columns) == ["tokens removed", "most attributed first", "random orders (mean)",
                                              "random order 1"]
    with pytest.raises(ValueError, match="at least one random order, not 0"):
        deletion_check(reranker, explained, orders=0)


def test_a_reranker_that_gives_several_scores_a_pair_is_refused_in_one_sentence(tiny_bert_folder, tmp_path):
    CrossEncoder(str(tiny_bert_folder), num_labels=3, device="cpu").save(str(tmp_path / "three-labels"))
    with pytest.raises(ValueError) as refused:
        explain_rerank(load_reranker(str(tmp_path / "three-labels"), "cpu"), QUERY, TEXT)
    said = str(refused.value)
    assert "gives 3 scores for a pair (one per label), not one" in said and "\n" not in said


class _Encoded(dict):
    """A tokenizer's output that has no sequence ids (a slow tokenizer's)."""

    def sequence_ids(self, index: int):
        raise ValueError("no sequence ids")


@pytest.mark.parametrize("encoded, special, parts", [
    (_Encoded(token_type_ids=torch.tensor([[0, 0, 0, 1, 1]])), [True, False, True, False, True],
     ["special", "query", "special", "text", "special"]),
    # neither sequence ids nor token types (RoBERTa's are all 0): the text starts after the first special token
    (_Encoded(token_type_ids=torch.tensor([[0, 0, 0, 0, 0, 0]])), [True, False, False, True, False, True],
     ["special", "query", "query", "special", "text", "special"]),
    (_Encoded(), [True, False, True, True, False, False, True],  # RoBERTa's pair: <s> A </s></s> B B </s>
     ["special", "query", "special", "special", "text", "text", "special"]),
])
def test_the_parts_of_a_tokenizer_without_sequence_ids_or_token_types(encoded, special, parts):
    from core.analysis.rerank_attribution import _parts

    assert _parts(encoded, special) == parts
