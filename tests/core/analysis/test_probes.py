"""The probes against their definitions written out apart (tests/probing.py): the nested cross-validation's accuracy
and chosen C per fold, the labels shuffled, the TF-IDF baseline's, and the online codelength, on MiniLM's vectors of
STS-B sentences labelled by genre, some of them repeated; texts repeated under random labels stay at chance (a
split of rows would put a text on both sides, and the probe would learn it); blank labels are no class."""

import re

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler

from core.analysis.probes import (
    PORTIONS,
    block_ends,
    checked_labels,
    coding_order,
    cross_validate,
    online_codelength,
    probe_layer,
    shuffled_codes,
    used_columns,
    words_probe,
)
from core.data.stsb import stsb_sample
from core.encoding.encoder import encode
from tests.probing import fixed_c, nested_cv, online_bits, text_groups

SIZE = 240
REPEATED = 30  # of the sample's texts, each appears twice more at the end (with its label)


@pytest.fixture(scope="module")
def genres(minilm):
    sample = stsb_sample(SIZE, seed=3)
    texts = sample["text"].tolist() + sample["text"].tolist()[:REPEATED] * 2
    genre = sample["genre"].tolist() + sample["genre"].tolist()[:REPEATED] * 2
    return texts, encode(minilm, texts).vectors, checked_labels(genre, texts)


def test_the_probe_is_the_nested_cross_validation_written_out(genres):
    texts, vectors, labels = genres
    groups = text_groups(texts)
    np.testing.assert_array_equal(labels.groups, groups)
    found = cross_validate(vectors, labels.codes, labels.groups, labels.count)
    accuracies, chosen = nested_cv(vectors, labels.codes, groups)
    np.testing.assert_allclose(found.accuracy, accuracies, atol=1e-12)
    assert found.chosen.tolist() == chosen
    low, high = found.interval()
    half = stats.t.ppf(0.975, 4) * np.std(accuracies, ddof=1) / np.sqrt(5)
    assert (low, high) == pytest.approx((np.mean(accuracies) - half, min(1.0, np.mean(accuracies) + half)))
    # out-of-fold probabilities: each text's predicted class is the one its fold's probe gave it
    assert np.mean(found.predicted == labels.codes) == pytest.approx(np.mean(accuracies), abs=1 / SIZE)


def test_a_sparse_probe_is_the_nested_cross_validation_of_every_column(genres):
    """A sparse model's rows (here MiniLM's vectors with their small values zeroed, among 400 columns no row uses):
    the probe fits on the columns the rows use, and equals the probe written out over the whole width."""
    _, vectors, labels = genres
    used = sp.csr_matrix(np.where(np.abs(vectors) > 0.05, vectors, 0.0))
    wide = sp.hstack([used, sp.csr_matrix((used.shape[0], 400))]).tocsr()
    wide = wide[:, np.random.default_rng(0).permutation(wide.shape[1])].tocsr()  # the unused columns in between
    assert used_columns(wide).shape[1] == len(np.unique(used.indices)) < used.shape[1] < wide.shape[1]
    found = cross_validate(wide, labels.codes, labels.groups, labels.count)
    accuracies, chosen = nested_cv(wide, labels.codes, labels.groups,
                                   prepare=lambda rows: StandardScaler(with_mean=False).fit(rows))
    np.testing.assert_allclose(found.accuracy, accuracies, atol=1e-12)
    assert found.chosen.tolist() == chosen


def test_the_labels_shuffled_are_the_same_probe_with_its_cs_on_labels_shuffled_with_the_seed(genres):
    _, vectors, labels = genres
    shuffled = shuffled_codes(labels.codes, seed=0)
    assert np.array_equal(shuffled, np.random.default_rng(0).permutation(labels.codes))
    chosen = nested_cv(vectors, labels.codes, labels.groups)[1]
    found = probe_layer(6, vectors, labels).shuffled
    np.testing.assert_allclose(found.accuracy, fixed_c(vectors, shuffled, labels.groups, chosen), atol=1e-12)
    assert found.chosen.tolist() == chosen


def test_the_words_baseline_is_the_same_protocol_on_tf_idf(genres):
    texts, _, labels = genres
    found = words_probe(texts, labels)
    expected, _ = nested_cv(texts, labels.codes, labels.groups,
                            prepare=lambda rows: TfidfVectorizer(sublinear_tf=True).fit(rows))
    np.testing.assert_allclose(found.accuracy, expected, atol=1e-12)


def test_the_online_codelength_is_the_code_written_out_block_by_block(genres):
    _, vectors, labels = genres
    code = online_codelength(vectors, labels.codes, labels.groups, labels.count, c=0.1)
    expected = online_bits(vectors, labels.codes, labels.groups, labels.count, c=0.1)
    assert code.bits == pytest.approx(expected, rel=1e-6)
    rows = len(labels.codes)
    assert code.uniform_bits == pytest.approx(rows * np.log2(labels.count))
    assert code.compression == pytest.approx(code.uniform_bits / code.bits)
    assert block_ends(2000) == [2, 4, 8, 16, 32, 64, 125, 250, 500, 1000, 2000]
    assert block_ends(SIZE, PORTIONS) == [1, 2, 4, 8, 15, 30, 60, 120, 240]  # the smallest portions meet
    order, ends = coding_order(labels.groups)
    for end in ends[:-1]:  # a block never ends inside a text's rows
        assert labels.groups[order[end - 1]] != labels.groups[order[end]]


def test_a_layers_record_holds_what_the_command_prints(genres):
    _, vectors, labels = genres
    found = probe_layer(6, vectors, labels, untrained=vectors[:, ::-1].copy()).record()
    assert set(found) == {"layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "shuffled_accuracy",
                          "untrained_accuracy", "mdl_bits", "uniform_bits", "compression"}
    assert found["layer"] == 6 and found["accuracy_low"] <= found["accuracy"] <= found["accuracy_high"]
    assert found["compression"] == pytest.approx(found["uniform_bits"] / found["mdl_bits"])
    # the untrained baseline is the same probe on the vectors given for it (here the same columns reversed)
    assert found["untrained_accuracy"] == pytest.approx(found["accuracy"], abs=1e-9)
    assert probe_layer(6, vectors, labels).record()["untrained_accuracy"] is None


def test_texts_repeated_under_random_labels_stay_at_chance(minilm):
    """200 different texts, each three times with one random label of two: nothing to learn. Split by rows, a text's
    copies sit on both sides of a fold and the probe learns them (the assertion on StratifiedKFold shows the leak);
    split by texts, the probe, TF-IDF and the online code stay at chance."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    texts = stsb_sample(200, seed=8)["text"].tolist()
    label = np.random.default_rng(1).integers(0, 2, len(texts)).astype(str)
    rows, labels_given = texts * 3, label.tolist() * 3
    vectors = encode(minilm, texts).vectors[np.tile(np.arange(200), 3)]
    labels = checked_labels(labels_given, rows)
    leaked = cross_val_score(LogisticRegression(C=100.0, max_iter=1000), vectors, labels.codes,
                             cv=StratifiedKFold(5, shuffle=True, random_state=0)).mean()
    assert leaked > 0.9  # the leak the grouped folds close
    found = probe_layer(6, vectors, labels)
    assert found.probe.accuracy.mean() < 0.62 and found.code.compression < 1.05
    assert words_probe(rows, labels).accuracy.mean() < 0.62


def test_blank_labels_are_left_out_and_counted_and_never_a_class():
    texts = [f"text {i}" for i in range(30)]
    labels = ["a", "b"] * 10 + ["", "  ", None, float("nan")] + ["a", "b"] * 3
    found = checked_labels(labels, texts)
    assert found.names == ["a", "b"] and found.unlabelled == 4 and found.given == 30 and not found.left_out
    assert found.said() == "Left out: 4 of the 30 rows have a blank label."
    assert found.rows.tolist() == list(range(20)) + list(range(24, 30))
    assert len(found.codes) == len(found.groups) == 26


@pytest.mark.parametrize("labels, said", [
    (["a"] * 10, "there is one class, “a”: give labels of at least 2 classes"),
    (["a"] * 10 + ["b"] * 4, "Each class needs at least 5 different texts (one in each of the 5 folds; a repeated "
                             "text counts once): “b” has 4 different texts; add texts"),
    ([], "there is no label: give labels"),
    ([c for c in "abcde" for _ in range(4)] + ["f"] * 5,
     "“a” has 4 different texts, “b” has 4 different texts, “c” has 4 different texts, …; add texts to those "
     "classes."),
])
def test_labels_that_cannot_be_probed_are_one_sentence(labels, said):
    with pytest.raises(ValueError, match=re.escape(said)) as refused:
        checked_labels(labels, [f"text {i}" for i in range(len(labels))])
    assert "\n" not in str(refused.value)


def test_five_different_texts_a_class_are_enough_and_a_repeated_text_counts_once():
    texts = [f"text {i}" for i in range(10)]
    assert np.bincount(checked_labels(["a"] * 5 + ["b"] * 5, texts).codes).tolist() == [5, 5]
    with pytest.raises(ValueError, match="“b” has 4"):  # five rows of b, one text twice
        checked_labels(["a"] * 5 + ["b"] * 5, texts[:5] + ["u0", "u1", "u2", "u3", "u3"])
    with pytest.raises(ValueError, match=re.escape("(3 rows with a blank label left out)")):
        checked_labels(["a"] * 5 + [""] * 3 + ["b"], [f"t{i}" for i in range(9)])


def test_a_class_of_one_text_repeated_is_left_out_and_said_while_two_classes_are_left():
    texts = [f"a{i}" for i in range(6)] + [f"b{i}" for i in range(6)] + ["Thank you for your message."] * 40
    labels = ["a"] * 6 + ["b"] * 6 + ["forums"] * 40
    found = checked_labels(labels, texts)
    assert found.names == ["a", "b"] and found.left_out == {"forums": 1} and found.rows.tolist() == list(range(12))
    assert found.said() == ("Left out: “forums” has 1 different text (a class needs 5, one in each of the 5 folds; a "
                            "repeated text counts once).")
