"""The texts whose neighbourhood changed most between two spaces, and a text's two neighbour lists, against
scikit-learn's NearestNeighbors."""

import numpy as np
import pytest

from core.analysis.agreement import neighbour_overlap
from core.analysis.neighbour_changes import changed_most, neighbour_lists
from tests.core.analysis.test_agreement import sklearn_neighbours

rng = np.random.default_rng(0)
VECTORS = rng.standard_normal((30, 6))
TEXTS = [f"text {i}" for i in range(30)]


def test_changed_most_ranks_the_text_that_moved_to_another_neighbourhood_first_with_both_lists():
    b = VECTORS.copy()
    b[5] = -b[5]  # only text 5 moves to another neighbourhood
    table = changed_most(TEXTS, neighbour_overlap(VECTORS, b, k=5), top=3)
    assert table["#"].iloc[0] == 5 and table["neighbours changed"].iloc[0] > 0.5
    assert list(table.columns) == ["#", "neighbours changed", "text", "neighbours in A", "neighbours in B"]
    near_a, near_b = sklearn_neighbours(VECTORS, 5), sklearn_neighbours(b, 5)
    assert table["neighbours in A"].iloc[0] == " ".join(f"#{i}" for i in near_a[5])
    assert table["neighbours in B"].iloc[0] == " ".join(f"#{i}" for i in near_b[5])
    assert table["text"].iloc[0] == "text 5"


def test_on_a_sample_each_measured_text_keeps_its_values_and_moved_breaks_ties():
    b = np.random.default_rng(1).standard_normal(VECTORS.shape)
    whole = changed_most(TEXTS, neighbour_overlap(VECTORS, b, k=5), top=30).set_index("#")
    rows = np.array([1, 4, 9, 20, 29])
    moved = np.array([0.1, 0.5, 0.2, 0.3, 0.4])
    some = changed_most(TEXTS, neighbour_overlap(VECTORS, b, k=5, rows=rows), top=30, moved=moved)
    assert sorted(some["#"]) == rows.tolist()
    np.testing.assert_allclose(some["neighbours changed"], whole.loc[some["#"], "neighbours changed"])
    assert dict(zip(some["#"], some["moved on the map"])) == dict(zip(rows.tolist(), moved.tolist()))
    for (c1, m1), (c2, m2) in zip(zip(some["neighbours changed"], some["moved on the map"]),
                                  zip(some["neighbours changed"].iloc[1:], some["moved on the map"].iloc[1:])):
        assert c1 > c2 or (c1 == c2 and m1 >= m2)


def test_neighbour_lists_put_a_texts_neighbours_in_a_and_b_side_by_side():
    b = VECTORS.copy()
    b[:, 0] *= 5
    overlap = neighbour_overlap(VECTORS, b, k=4, rows=np.array([2, 7]))
    lists = neighbour_lists(TEXTS, overlap, 7)
    near_a, near_b = sklearn_neighbours(VECTORS, 4)[7], sklearn_neighbours(b, 4)[7]
    assert lists["A: #"].tolist() == near_a.tolist() and lists["B: #"].tolist() == near_b.tolist()
    assert lists["A: text"].tolist() == [f"text {i}" for i in near_a]
    assert lists["A: also in B"].tolist() == [i in near_b for i in near_a]
    assert lists["B: also in A"].tolist() == [i in near_a for i in near_b]
    with pytest.raises(ValueError, match="#3 is not among the 2 texts"):
        neighbour_lists(TEXTS, overlap, 3)
