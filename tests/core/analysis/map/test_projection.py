import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.manifold import trustworthiness

from core.analysis.map.neighbours import align
from core.analysis.map.projection import (
    aligned_umap,
    check_vectors,
    density_clusters,
    how_placed,
    kmeans_clusters,
    map_ranks,
    nearest,
    neighbour_overlap,
    pca_projection,
    place_queries,
    project,
    trust,
    tsne_projection,
    umap_projection,
)
from core.data.sampling import sample_indices
from tests.forks import forks


def blobs(per_blob: int = 30, dims: int = 8, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = np.eye(dims)[:3] * 20
    points = np.concatenate([c + rng.normal(scale=0.3, size=(per_blob, dims)) for c in centres])
    return points, np.repeat(np.arange(3), per_blob)


def test_pca_of_points_on_a_line_has_one_component_with_all_the_variance():
    direction = np.array([1.0, 2.0, -2.0]) / 3
    points = np.outer(np.linspace(-5, 5, 11), direction) + np.array([1.0, 0.0, 3.0])
    result = pca_projection(points)
    np.testing.assert_allclose(result.explained_variance, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(np.abs(result.coords[:, 0]), np.abs(np.linspace(-5, 5, 11)), atol=1e-9)
    np.testing.assert_allclose(result.coords[:, 1], 0, atol=1e-9)


def test_pca_matches_scikit_learn_and_placing_a_query_is_its_transform():
    points, _ = blobs()
    result = pca_projection(points)
    reference = PCA(n_components=2, svd_solver="full").fit(points)
    np.testing.assert_allclose(result.coords, reference.transform(points), atol=1e-9)
    query = np.random.default_rng(5).normal(size=(2, points.shape[1]))
    np.testing.assert_allclose(place_queries(result, points, query), reference.transform(query), atol=1e-9)


def test_tsne_and_umap_place_a_query_at_the_mean_of_its_nearest_points():
    points, _ = blobs()
    coords = np.random.default_rng(1).normal(size=(len(points), 2))
    fake = project(points, method="PCA")
    fake = type(fake)(coords=coords, method="t-SNE")
    query = points[:1] + 0.01
    indices, scores = nearest(points, query, k=5)
    cosines = points @ query[0] / (np.linalg.norm(points, axis=1) * np.linalg.norm(query[0]))
    np.testing.assert_array_equal(indices[0], np.argsort(-cosines)[:5])
    np.testing.assert_allclose(scores[0], np.sort(cosines)[::-1][:5], atol=1e-5)
    np.testing.assert_allclose(place_queries(fake, points, query, k=5)[0], coords[indices[0]].mean(axis=0))


def test_neighbour_overlap_of_an_exact_2d_input_is_one():
    coords = np.random.default_rng(2).normal(size=(60, 2)) + 10  # away from the origin: cosine != Euclidean
    overlap = neighbour_overlap(coords, coords, k=10)
    assert overlap.mean() < 1  # cosine neighbours in the full space differ from Euclidean ones on the map
    ring = np.stack([np.cos(np.linspace(0, 6, 60)), np.sin(np.linspace(0, 6, 60))], axis=1)
    np.testing.assert_array_equal(neighbour_overlap(ring, ring, k=10), np.ones(60))


def _brute_overlap(vectors: np.ndarray, coords: np.ndarray, k: int) -> np.ndarray:
    """An independent computation: full n x n distances with scipy, self left out, sets compared."""
    from scipy.spatial.distance import cdist

    high, low = cdist(vectors, vectors, "cosine"), cdist(coords, coords)
    np.fill_diagonal(high, np.inf)
    np.fill_diagonal(low, np.inf)
    return np.array([len(set(np.argsort(h, kind="stable")[:k]) & set(np.argsort(m, kind="stable")[:k])) / k
                     for h, m in zip(high, low)])


def test_neighbour_overlap_matches_a_brute_force_computation_on_all_points_or_some():
    rng = np.random.default_rng(7)
    vectors, coords = rng.normal(size=(300, 12)), rng.normal(size=(300, 2))
    expected = _brute_overlap(vectors, coords, 10)
    np.testing.assert_allclose(neighbour_overlap(vectors, coords, k=10), expected)
    some = np.array([0, 5, 17, 299])
    np.testing.assert_allclose(neighbour_overlap(vectors, coords, k=10, points=some), expected[some])


def test_a_point_with_a_duplicate_on_the_map_is_never_its_own_neighbour():
    coords = np.array([[0.0, 0], [0, 0], [1, 0], [5, 5]])
    vectors = np.array([[1.0, 0, 0], [1, 0.1, 0], [1, 0.3, 0], [0, 0, 1]])
    np.testing.assert_allclose(neighbour_overlap(vectors, coords, k=1)[[0, 1, 3]], [1, 1, 0])  # 2: a tie


def test_trust_above_its_cap_measures_a_seeded_sample_and_leaves_the_rest_unmeasured():
    rng = np.random.default_rng(8)
    vectors, coords = rng.normal(size=(400, 12)), rng.normal(size=(400, 2))
    report = trust(vectors, coords, k=10, seed=3, max_points=100)
    picked = sample_indices(400, limit=100, seed=3)
    assert report.points == 100 and report.sampled and np.isnan(report.overlap).sum() == 300
    np.testing.assert_allclose(report.overlap[picked], _brute_overlap(vectors, coords, 10)[picked])
    assert report.mean_overlap == pytest.approx(report.overlap[picked].mean())
    expected = trustworthiness(vectors[picked], coords[picked], n_neighbors=10, metric="cosine")
    assert report.trustworthiness == pytest.approx(expected)


def test_trust_reports_scikit_learns_trustworthiness_and_the_overlap():
    points, _ = blobs()
    result = pca_projection(points)
    report = trust(points, result.coords, k=10)
    expected = trustworthiness(points, result.coords, n_neighbors=10, metric="cosine")
    assert report.trustworthiness == pytest.approx(expected)
    assert report.k == 10 and report.points == len(points)
    assert len(report.overlap) == len(points) and 0 < report.mean_overlap <= 1


def test_trust_with_few_points_shrinks_k_and_skips_trustworthiness():
    points = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])
    report = trust(points, pca_projection(points).coords)
    assert report.k == 2 and report.trustworthiness is None
    np.testing.assert_array_equal(report.overlap, [1, 1, 1])


def test_kmeans_recovers_well_separated_blobs():
    points, truth = blobs()
    labels = kmeans_clusters(points, k=3, seed=0)
    pairs = set(zip(truth.tolist(), labels.tolist()))
    assert len(pairs) == 3 and len({label for _, label in pairs}) == 3


def test_tsne_with_perplexity_above_a_third_of_the_other_points_raises_a_clear_error(caplog):
    points, _ = blobs(per_blob=4)
    with pytest.raises(ValueError,
                       match=r"perplexity \(3.7\) can be at most a third of the other points \(3.67 for 12"):
        tsne_projection(points, perplexity=3.7)
    tsne_projection(points, perplexity=11 / 3)
    assert "too high" not in caplog.text  # at the limit openTSNE uses the perplexity as given, never a lower one
    with pytest.raises(ValueError, match=r"neighbours \(15\) must be fewer than the number of points \(12\)"):
        umap_projection(points, neighbours=15)


def test_tsne_separates_blobs_reproducibly_with_a_seed():
    points, truth = blobs()
    first = tsne_projection(points, perplexity=10, seed=3)
    np.testing.assert_array_equal(first.coords, tsne_projection(points, perplexity=10, seed=3).coords)
    assert trust(points, first.coords).mean_overlap > 0.5
    labels = kmeans_clusters(first.coords, k=3)
    assert len(set(zip(truth.tolist(), labels.tolist()))) == 3


def test_tsne_on_every_core_forks_nothing():
    """openTSNE's n_jobs=-1 runs threads, in its exact neighbour search (below 1,000 points) and in Annoy's (above):
    the server forks nothing (core.threads, `log_forks`)."""
    before = forks()
    for n in (300, 1_200):
        tsne_projection(blobs(per_blob=n // 3)[0], perplexity=10)
    assert forks() == before


@pytest.mark.parametrize("vectors, message", [
    (np.ones((1, 4)), "at least 2 points; there is 1"),
    (np.ones((5, 4)), "All 5 points have the same vector"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "1 vector\\(s\\) hold NaN or infinite"),
])
def test_bad_inputs_raise_one_clear_sentence(vectors, message):
    with pytest.raises(ValueError, match=message):
        check_vectors(vectors)


def test_tsne_and_umap_need_four_points():
    three = np.eye(3)
    with pytest.raises(ValueError, match="t-SNE needs at least 4 points; there are 3"):
        tsne_projection(three, perplexity=1)
    with pytest.raises(ValueError, match="UMAP needs at least 4 points; there are 3"):
        umap_projection(three, neighbours=2)


def test_two_points_still_get_a_pca_map():
    result = pca_projection(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    assert result.explained_variance[0] == pytest.approx(1.0)
    assert abs(result.coords[0, 0] - result.coords[1, 0]) == pytest.approx(np.sqrt(2))


def test_sampling_is_seeded_sorted_and_only_above_the_limit():
    np.testing.assert_array_equal(sample_indices(5, limit=10), np.arange(5))
    picked = sample_indices(50_000, limit=20_000, seed=4)
    assert len(picked) == 20_000 and len(np.unique(picked)) == 20_000 and np.all(np.diff(picked) > 0)
    np.testing.assert_array_equal(picked, sample_indices(50_000, limit=20_000, seed=4))
    assert not np.array_equal(picked, sample_indices(50_000, limit=20_000, seed=5))


def test_map_ranks_count_from_the_closest_point_on_the_map():
    coords = np.array([[0.0, 0.0], [3.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    np.testing.assert_array_equal(map_ranks(coords, np.array([0.1, 0.0]), np.array([1, 3, 0])), [4, 3, 1])


@pytest.mark.slow
def test_umap_runs_offline_seeded_and_keeps_blobs_apart():
    points, truth = blobs()
    first = umap_projection(points, neighbours=10, min_dist=0.1, seed=1)
    assert first.coords.shape == (len(points), 2) and first.params["neighbours"] == 10
    np.testing.assert_allclose(first.coords, umap_projection(points, neighbours=10, min_dist=0.1, seed=1).coords)
    labels = kmeans_clusters(first.coords, k=3)
    assert len(set(zip(truth.tolist(), labels.tolist()))) == 3


def test_aligned_umap_keeps_each_text_nearer_its_place_than_two_umaps_procrustes_aligned():
    a, _ = blobs(per_blob=40)
    b = a + np.random.default_rng(3).normal(scale=0.3, size=a.shape)
    first, second = aligned_umap(a, b, neighbours=10)
    assert first.coords.shape == second.coords.shape == (len(a), 2) and first.method == second.method == "UMAP"
    together = np.linalg.norm(first.coords - second.coords, axis=1).mean()
    alone_a, alone_b = umap_projection(a, neighbours=10).coords, umap_projection(b, neighbours=10).coords
    apart = np.linalg.norm(alone_a - align(alone_a, alone_b), axis=1).mean()
    assert together < apart / 2
    with pytest.raises(ValueError, match="same texts in both spaces, not 120 and 119 points"):
        aligned_umap(a, b[:-1])
    with pytest.raises(ValueError, match=r"neighbours \(200\) must be fewer"):
        aligned_umap(a, b, neighbours=200)


def test_density_clusters_find_dense_groups_on_the_map_and_leave_scattered_points_out():
    rng = np.random.default_rng(4)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    dense = np.concatenate([c + rng.normal(scale=0.3, size=(50, 2)) for c in centres])
    scattered = np.array([[30.0, 30.0], [-30.0, 25.0], [25.0, -30.0]])
    labels = density_clusters(np.concatenate([dense, scattered]), min_size=10)
    truth = np.repeat(np.arange(3), 50)
    assert len(set(zip(truth.tolist(), labels[:150].tolist()))) == 3 and (labels[:150] >= 0).all()
    assert labels[150:].tolist() == [-1, -1, -1]
    with pytest.raises(ValueError, match="smallest cluster must be between 2 and 153 points here, not 200"):
        density_clusters(np.concatenate([dense, scattered]), min_size=200)


def test_pca_read_in_chunks_is_scikit_learns_pca_with_its_signs(monkeypatch):
    import core.analysis.map.projection as projection

    monkeypatch.setattr(projection, "CHUNK", 7)  # 90 rows in 13 chunks
    points = blobs()[0].astype(np.float32)
    result = pca_projection(points)
    reference = PCA(n_components=2, svd_solver="covariance_eigh").fit(points.astype(np.float64))
    np.testing.assert_allclose(result.components, reference.components_, atol=1e-9)
    np.testing.assert_allclose(result.coords, reference.transform(points.astype(np.float64)), atol=1e-7)
    np.testing.assert_allclose(result.explained_variance, reference.explained_variance_ratio_, atol=1e-9)


@pytest.mark.parametrize("method", ["t-SNE", "UMAP"])
def test_above_the_fit_size_a_seeded_sample_is_fitted_and_the_fitted_model_places_the_rest(monkeypatch, method):
    import core.analysis.map.projection as projection

    monkeypatch.setattr(projection, "FIT_POINTS", 60)
    monkeypatch.setattr(projection, "CHUNK", 11)
    points, labels = blobs(per_blob=40)
    options = {"perplexity": 10} if method == "t-SNE" else {"neighbours": 10}
    result = project(points, method=method, seed=1, **options)
    fitted = sample_indices(len(points), limit=60, seed=1)
    alone = project(points[fitted], method=method, seed=1, **options)
    np.testing.assert_allclose(result.coords[fitted], alone.coords)  # the sample's own map, unchanged
    assert result.params["fitted_on"] == 60 and np.isfinite(result.coords).all()
    rest = np.setdiff1d(np.arange(len(points)), fitted)
    nearest_fitted = np.linalg.norm(result.coords[rest][:, None] - alone.coords[None], axis=2).argmin(axis=1)
    assert (labels[fitted][nearest_fitted] == labels[rest]).mean() > 0.95  # each placed among its own blob


def test_the_page_says_whether_every_point_was_fitted_or_a_sample_placed_the_rest(monkeypatch):
    import core.analysis.map.projection as projection

    points, _ = blobs(per_blob=40)
    assert how_placed(project(points, method="PCA")) == "PCA placed all 120 points (exact)."
    monkeypatch.setattr(projection, "FIT_POINTS", 60)
    assert how_placed(project(points, method="UMAP", neighbours=10)) == (
        "UMAP was fitted on a seeded sample of 60 of the 120 points; the fitted model placed every other point.")


def test_k_means_above_the_fit_size_gives_every_point_its_nearest_fitted_centre(monkeypatch):
    import core.analysis.map.projection as projection

    monkeypatch.setattr(projection, "FIT_POINTS", 30)
    points, labels = blobs(per_blob=40)
    found = kmeans_clusters(points, k=3, seed=0)
    assert len(found) == len(points)
    assert all(len(set(found[labels == blob])) == 1 for blob in range(3))  # each blob is one cluster
