"""The one map builder: a table of rows and its space in, the points with their row ids, colours and the query's star
out, checked against scikit-learn's PCA and KMeans computed apart."""

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA

from core.analysis.map.projection import Projection, ProjectionParams, project
from core.maps.build import build_map, colour, map_points
from core.maps.space import MapSpace
from core.plots.map import MAX_CATEGORIES
from tests.row_ids import digest_id

RNG = np.random.default_rng(3)
VECTORS = np.concatenate([RNG.normal(loc, 0.3, size=(30, 6)) for loc in (-2.0, 0.0, 2.0)])
TEXTS = [f"text {i}" for i in range(90)]


def same_up_to_sign(found: np.ndarray, expected: np.ndarray, atol: float) -> None:
    signs = np.sign((found * expected).sum(axis=0))
    np.testing.assert_allclose(found * signs, expected, atol=atol)


def test_labels_colour_the_map_where_a_legend_holds_them_else_k_means_with_a_note():
    labels = ["a", "b", "c"] * 30
    shown = colour(labels, VECTORS)
    assert list(shown.colouring.values) == labels and shown.clusters is None and shown.note == ""
    many = [f"label {i}" for i in range(MAX_CATEGORIES + 1)] + ["label 0"] * (90 - MAX_CATEGORIES - 1)
    fallback = colour(many, VECTORS, name="topic", k=3)
    assert fallback.colouring.title == "cluster" and len(set(fallback.clusters)) == 3
    assert fallback.note.startswith(f"The column `topic` has {MAX_CATEGORIES + 1} distinct values")
    # three well-apart groups: k-means finds them, whatever it numbers them
    assert len({tuple(sorted(set(fallback.clusters[g * 30:(g + 1) * 30]))) for g in range(3)}) == 3


def test_the_points_carry_every_row_with_its_id_label_and_position():
    frame = pd.DataFrame({"text": ["same", "other", "same"], "label": ["x", "y", "z"]})
    coords = np.array([[0.0, 1.0], [2.0, 3.0], [0.0, 1.0]])
    points = map_points(frame, coords, coords, title="three", label="label")
    assert points.table().to_dict("list") == {"row_id": [digest_id("same"), digest_id("other"), digest_id("same", 1)],
                                              "text": ["same", "other", "same"], "label": ["x", "y", "z"],
                                              "x": [0.0, 2.0, 0.0], "y": [1.0, 3.0, 1.0]}
    assert points.table([2])["label"].tolist() == ["z"]


def test_a_map_is_the_pca_of_its_space_with_the_query_at_its_projection():
    frame = pd.DataFrame({"text": TEXTS, "group": ["a"] * 30 + ["b"] * 30 + ["c"] * 30})
    query = VECTORS[:5].mean(axis=0)
    points = build_map(frame, MapSpace(VECTORS), ProjectionParams("PCA"), title="a map", label="group",
                       query=("near the first group", query), top=3)
    pca = PCA(n_components=2, svd_solver="full").fit(VECTORS)
    same_up_to_sign(points.coords, pca.transform(VECTORS), atol=1e-8)
    signs = np.sign((points.coords * pca.transform(VECTORS)).sum(axis=0))
    np.testing.assert_allclose(points.query.position, pca.transform(query[None])[0] * signs, atol=1e-8)
    cosines = VECTORS @ query / np.linalg.norm(VECTORS, axis=1) / np.linalg.norm(query)
    assert list(points.query.neighbours) == np.argsort(-cosines)[:3].tolist()
    assert points.query.text == "near the first group"
    assert points.colouring.title == "group" and points.row_ids == [digest_id(t) for t in TEXTS]


def test_a_table_that_names_its_own_rows_keeps_them():
    frame = pd.DataFrame({"row_id": ["r2", "r1"], "text": ["b", "a"]})
    points = map_points(frame, np.eye(2), np.eye(2), title="two")
    assert points.row_ids == ["r2", "r1"]


@pytest.mark.parametrize("ids", [["r1", "r1"], ["r1", None]])
def test_row_ids_that_do_not_name_each_row_once_are_made_from_the_texts(ids):
    frame = pd.DataFrame({"row_id": ids, "text": ["b", "a"]})
    assert map_points(frame, np.eye(2), np.eye(2), title="two").row_ids == [digest_id("b"), digest_id("a")]


@pytest.mark.parametrize("params", [ProjectionParams("t-SNE", perplexity=5.0, seed=2),
                                    ProjectionParams("UMAP", neighbours=5, min_dist=0.5, seed=2)])
def test_a_map_is_projected_with_every_parameter_it_is_given(params):
    points = build_map(pd.DataFrame({"text": TEXTS}), MapSpace(VECTORS), params, title="a map")
    np.testing.assert_allclose(points.coords, project(VECTORS, **params.options()).coords, atol=1e-6)
    assert points.title == points.canvas().view["label"] == "a map"


def test_unlabelled_points_are_coloured_by_k_means_with_the_maps_seed_and_say_where_the_projection_was_fitted():
    noise = RNG.normal(size=(90, 6))
    fitted = Projection(noise[:, :2], "UMAP", {"fitted_on": 40})
    points = map_points(pd.DataFrame({"text": TEXTS}), noise, fitted, title="noise", k=4, seed=7)
    assert points.clusters.tolist() == KMeans(n_clusters=4, n_init="auto", random_state=7).fit(noise).labels_.tolist()
    assert points.fitted_on == 40 and map_points(pd.DataFrame({"text": TEXTS}), noise, noise[:, :2],
                                                 title="noise").fitted_on is None
