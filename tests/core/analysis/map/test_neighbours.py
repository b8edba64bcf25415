import numpy as np
import pandas as pd
import pytest
from scipy.spatial import procrustes
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.agreement import neighbour_overlap
from core.analysis.map.neighbours import align, movers, point_neighbours, selection_table

rng = np.random.default_rng(0)
VECTORS = rng.standard_normal((30, 6))
TEXTS = [f"text {i}" for i in range(30)]


def test_point_neighbours_are_the_full_space_nearest_with_whether_the_map_kept_them():
    coords = VECTORS[:, :2]
    table = point_neighbours(VECTORS, coords, TEXTS, 4, k=5)
    scores = cosine_similarity(VECTORS[[4]], VECTORS)[0]
    scores[4] = -np.inf
    assert table["#"].tolist() == np.argsort(-scores)[:5].tolist()
    np.testing.assert_allclose(table["cosine"], np.sort(scores)[::-1][:5], atol=1e-6)
    map_near = set(np.argsort(np.linalg.norm(coords - coords[4], axis=1))[1:6].tolist())
    assert table["near on the map"].tolist() == [i in map_near for i in table["#"]]


def test_the_selection_table_keeps_metadata_and_names_each_rows_nearest_text():
    frame = pd.DataFrame({"text": TEXTS, "genre": ["a", "b"] * 15})
    table = selection_table(frame, [3, 7], VECTORS)
    assert table["#"].tolist() == [3, 7] and table["genre"].tolist() == ["b", "b"]
    scores = cosine_similarity(VECTORS[[3]], VECTORS)[0]
    scores[3] = -np.inf
    assert table.loc[0, "nearest text"] == TEXTS[int(np.argmax(scores))]
    assert selection_table(frame, [], VECTORS).empty


def test_alignment_is_scipys_procrustes_up_to_its_normalisation():
    reference = rng.standard_normal((40, 2))
    angle = 0.7
    rotated = reference @ np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) * 3 + 5
    aligned = align(reference, rotated)
    np.testing.assert_allclose(aligned, reference, atol=1e-9)
    noisy = rotated + 0.1 * rng.standard_normal(rotated.shape)
    _, scipy_aligned, disparity = procrustes(reference, noisy)
    ours = align(reference, noisy)
    standard = (reference - reference.mean(axis=0)) / np.linalg.norm(reference - reference.mean(axis=0))
    assert ((standard - (ours - reference.mean(axis=0)) / np.linalg.norm(reference - reference.mean(axis=0))) ** 2
            ).sum() == pytest.approx(disparity, rel=1e-6)


def test_movers_are_the_texts_whose_neighbours_changed_most_with_how_far_each_moved_between_the_maps():
    b = np.random.default_rng(1).standard_normal(VECTORS.shape)
    coords, moved = VECTORS[:, :2], VECTORS[:, 2:4]
    rows = np.array([0, 3, 8, 15, 29])
    overlap = neighbour_overlap(VECTORS, b, k=5, rows=rows)
    table = movers(TEXTS, overlap, coords, moved, top=30)
    assert sorted(table["#"]) == rows.tolist()
    distance = {i: float(np.hypot(*(coords[i] - moved[i]))) for i in rows}
    np.testing.assert_allclose(table["moved on the map"], [distance[i] for i in table["#"]])
    assert "neighbours in A" in table and "neighbours in B" in table
