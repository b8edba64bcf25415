"""A concept's direction against its definition written out (scikit-learn and numpy), on planted data whose answer is
known: two groups apart along one axis (the direction finds the axis, and no random direction separates them as
far), and two groups drawn alike (random directions do as well); texts repeated are split as a whole. Mislabels:
labels flipped on purpose are found, in this process (no fork: the server forks nothing)."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from core.analysis.concepts import concept_direction, group_mask, mislabelled, separation
from tests.forks import forks
from tests.probing import grouped_splits

RNG = np.random.default_rng(11)
DIMS = 20


def apart(shift: float, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    vectors = RNG.normal(size=(2 * n, DIMS))
    vectors[:n, 0] += shift
    return vectors, np.arange(2 * n) < n


def cohen(scores: np.ndarray, inside: np.ndarray) -> float:
    a, b = scores[inside], scores[~inside]
    pooled = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1)) / (len(a) + len(b) - 2))
    return (a.mean() - b.mean()) / pooled


def texts(count: int) -> list[str]:
    return [f"text {i}" for i in range(count)]


def test_the_direction_is_the_probes_unit_weights_and_its_separation_is_out_of_fold():
    vectors, inside = apart(3.0)
    # the last 20 rows repeat 20 texts of the first group and 20 of the second, with their vectors
    repeated = np.r_[np.arange(0, 20), np.arange(60, 80)]
    vectors, inside = np.vstack([vectors, vectors[repeated]]), np.r_[inside, inside[repeated]]
    names = texts(120) + [f"text {i}" for i in repeated]
    found = concept_direction(vectors, np.ones(len(vectors), bool), inside, names)
    scaler = StandardScaler().fit(vectors)
    weights = LogisticRegression(C=1.0, max_iter=1000).fit(scaler.transform(vectors), inside).coef_[0]
    weights /= np.linalg.norm(weights)
    np.testing.assert_allclose(found.scores, scaler.transform(vectors) @ weights, atol=1e-6)
    assert abs(weights[0]) == max(abs(weights)) > 0.8  # the planted axis
    held = np.zeros(len(vectors))
    groups = np.r_[np.arange(120), repeated]
    for train, test in grouped_splits(inside, groups, 5, 0):
        assert not set(groups[train]) & set(groups[test])
        fold = StandardScaler().fit(vectors[train])
        w = LogisticRegression(C=1.0, max_iter=1000).fit(fold.transform(vectors[train]), inside[train]).coef_[0]
        held[test] = fold.transform(vectors[test]) @ (w / np.linalg.norm(w))
    assert found.separation == pytest.approx(cohen(held, inside), rel=1e-6) == pytest.approx(separation(held, inside))
    directions = np.random.default_rng(0).standard_normal((100, DIMS))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    np.testing.assert_allclose(found.random, [cohen(scaler.transform(vectors) @ d, inside) for d in directions],
                               atol=1e-9)
    assert found.p_value == pytest.approx(1 / 101)
    high, low = found.ends(names, 5)
    assert inside[high].all() and not inside[low].any()
    once = np.arange(120)  # the repeated rows' texts are listed once, at their first row
    assert high.tolist() == once[np.argsort(-found.scores[:120], kind="stable")][:5].tolist()
    assert low.tolist() == once[np.argsort(found.scores[:120], kind="stable")][:5].tolist()


def test_groups_drawn_alike_are_separated_no_further_than_random_directions():
    vectors, inside = apart(0.0)
    found = concept_direction(vectors, np.ones(len(vectors), bool), inside, texts(len(vectors)))
    assert found.p_value > 0.05


def test_two_labels_of_three_leave_the_third_out_but_score_it():
    labels = ["a"] * 30 + ["b"] * 30 + ["c"] * 30
    kept, inside = group_mask(labels, "a", "b")
    assert kept.sum() == 60 and inside.sum() == 30 and not inside[60:].any()
    vectors = RNG.normal(size=(90, DIMS))
    found = concept_direction(vectors, kept, inside, texts(90))
    assert len(found.scores) == 90
    with pytest.raises(ValueError, match="at least 5 different texts in each group"):
        concept_direction(vectors, kept, np.arange(90) < 3, texts(90))
    with pytest.raises(ValueError, match="not 1 and"):  # one text thirty times is one text
        concept_direction(vectors, kept, inside, ["the same"] * 30 + texts(60))


@pytest.mark.parametrize("first, second, refused", [(3, 30, "not 3 and 30"), (30, 4, "not 30 and 4"), (5, 5, None)])
def test_each_group_needs_a_text_in_each_fold(first, second, refused):
    vectors = RNG.normal(size=(first + second, DIMS))
    inside = np.arange(first + second) < first
    if refused is None:
        assert len(concept_direction(vectors, np.ones(len(inside), bool), inside,
                                     texts(first + second)).scores) == first + second
    else:
        with pytest.raises(ValueError, match=refused):
            concept_direction(vectors, np.ones(len(inside), bool), inside, texts(first + second))


def test_a_label_against_the_rest_keeps_every_text():
    kept, inside = group_mask(["a", "b", "c", "a"], "a", None)
    assert kept.tolist() == [True] * 4 and inside.tolist() == [True, False, False, True]


def test_groups_that_do_not_spread_are_not_separated():
    assert separation(np.ones(10), np.arange(10) < 5) == 0.0


def test_labels_flipped_on_purpose_are_found_mislabelled_least_sure_first():
    codes = np.repeat([0, 1, 2], 40)
    probabilities = np.full((120, 3), 0.02)
    probabilities[np.arange(120), codes] = 0.96
    flipped = [3, 50, 101]
    wrong = {3: 1, 50: 2, 101: 0}
    for row, given in wrong.items():
        codes[row] = given
    found = mislabelled(codes, probabilities)
    assert sorted(found.tolist()) == flipped


def test_mislabels_fork_no_process():
    """cleanlab's find_label_issues shares its work out among a process pool by default (a fork a class on a machine
    of two cores): in a threaded server that fork can copy a lock another thread holds, and the pool never ends."""
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, 3000)
    probabilities = rng.dirichlet(np.ones(3), 3000)
    before = forks()
    found = mislabelled(codes, probabilities)
    assert forks() == before, "mislabelled forked a process"
    assert len(found) > 0
