"""The probes against their definitions written out apart (tests/probing.py): the nested cross-validation's accuracy
and chosen C per fold, the control task's, the TF-IDF baseline's, and the online codelength, on MiniLM's vectors of
STS-B sentences labelled by genre."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.feature_extraction.text import TfidfVectorizer

from core.analysis.probes import (
    PORTIONS,
    block_ends,
    checked_labels,
    control_codes,
    cross_validate,
    online_codelength,
    probe_layer,
    words_probe,
)
from core.data.stsb import stsb_sample
from core.encoding.encoder import encode
from tests.probing import fixed_c, nested_cv, online_bits

SIZE = 240


@pytest.fixture(scope="module")
def genres(minilm):
    sample = stsb_sample(SIZE, seed=3)
    texts = sample["text"].tolist()
    return texts, encode(minilm, texts).vectors, checked_labels(sample["genre"].tolist())


def test_the_probe_is_the_nested_cross_validation_written_out(genres):
    _, vectors, labels = genres
    found = cross_validate(None, vectors, labels.codes, labels.count)
    accuracies, chosen = nested_cv(vectors, labels.codes)
    np.testing.assert_allclose(found.accuracy, accuracies, atol=1e-12)
    assert found.chosen.tolist() == chosen
    low, high = found.interval()
    half = stats.t.ppf(0.975, 4) * np.std(accuracies, ddof=1) / np.sqrt(5)
    assert (low, high) == pytest.approx((np.mean(accuracies) - half, min(1.0, np.mean(accuracies) + half)))
    # out-of-fold probabilities: each text's predicted class is the one its fold's probe gave it
    assert np.mean(found.predicted == labels.codes) == pytest.approx(np.mean(accuracies), abs=1 / SIZE)


def test_the_control_task_is_the_same_probe_with_its_cs_on_labels_shuffled_with_the_seed(genres):
    _, vectors, labels = genres
    shuffled = control_codes(labels.codes, seed=0)
    assert np.array_equal(shuffled, np.random.default_rng(0).permutation(labels.codes))
    chosen = nested_cv(vectors, labels.codes)[1]
    found = probe_layer(6, vectors, labels).control
    np.testing.assert_allclose(found.accuracy, fixed_c(vectors, shuffled, chosen), atol=1e-12)
    assert found.chosen.tolist() == chosen


def test_the_words_baseline_is_the_same_protocol_on_tf_idf(genres):
    texts, _, labels = genres
    found = words_probe(texts, labels)
    expected, _ = nested_cv(texts, labels.codes, prepare=lambda rows: TfidfVectorizer(sublinear_tf=True).fit(rows))
    np.testing.assert_allclose(found.accuracy, expected, atol=1e-12)


def test_the_online_codelength_is_the_code_written_out_block_by_block(genres):
    _, vectors, labels = genres
    code = online_codelength(vectors, labels.codes, labels.count, c=0.1)
    assert code.bits == pytest.approx(online_bits(vectors, labels.codes, labels.count, c=0.1), rel=1e-6)
    assert code.uniform_bits == pytest.approx(SIZE * np.log2(labels.count))
    assert code.compression == pytest.approx(code.uniform_bits / code.bits)
    assert block_ends(2000) == [2, 4, 8, 16, 32, 64, 125, 250, 500, 1000, 2000]
    assert block_ends(SIZE, PORTIONS) == [1, 2, 4, 8, 15, 30, 60, 120, 240]  # the smallest portions meet


def test_a_layers_record_holds_what_the_command_prints(genres):
    _, vectors, labels = genres
    found = probe_layer(6, vectors, labels).record()
    assert set(found) == {"layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "control_accuracy",
                          "selectivity", "mdl_bits", "uniform_bits", "compression"}
    assert found["layer"] == 6 and found["selectivity"] == pytest.approx(found["accuracy"]
                                                                         - found["control_accuracy"])
    assert found["accuracy_low"] <= found["accuracy"] <= found["accuracy_high"]
    assert found["compression"] == pytest.approx(found["uniform_bits"] / found["mdl_bits"])


@pytest.mark.parametrize("labels, said", [
    (["a"] * 10, "there is one class, “a”: give labels of at least 2 classes"),
    (["a"] * 10 + ["b"] * 4, "Each class needs at least 5 texts (one in each of the 5 folds): “b” has 4"),
    ([], "there is no label: give labels"),
    ([c for c in "abcde" for _ in range(4)] + ["f"] * 5,
     "“a” has 4, “b” has 4, “c” has 4, …; add texts to those classes or leave them out."),
])
def test_labels_that_cannot_be_probed_are_one_sentence(labels, said):
    with pytest.raises(ValueError, match=re.escape(said)) as refused:
        checked_labels(labels)
    assert "\n" not in str(refused.value)


def test_five_texts_a_class_are_enough():
    assert np.bincount(checked_labels(["a"] * 5 + ["b"] * 5).codes).tolist() == [5, 5]
