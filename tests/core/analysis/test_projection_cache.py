import numpy as np
import pytest

from core.analysis import projection_cache
from core.analysis.projection import project
from core.analysis.projection_cache import (aligned_key, cached_aligned, cached_project, projection_key,
                                            stored_aligned, stored_projection)

VECTORS = np.random.default_rng(0).standard_normal((60, 8))


@pytest.mark.parametrize("method", ["PCA", "t-SNE"])
def test_a_second_call_reads_the_projection_back_from_disk(method, monkeypatch):
    first = cached_project(VECTORS, method=method, perplexity=10, seed=1)
    expected = project(VECTORS, method=method, perplexity=10, seed=1)
    np.testing.assert_allclose(first.coords, expected.coords)
    monkeypatch.setattr(projection_cache, "project", lambda *a, **k: pytest.fail("computed again"))
    again = cached_project(VECTORS, method=method, perplexity=10, seed=1)
    np.testing.assert_array_equal(again.coords, first.coords)
    assert again.method == method and again.params == first.params
    if method == "PCA":
        np.testing.assert_array_equal(again.components, first.components)


def test_the_key_changes_with_the_vectors_and_the_parameters():
    base = projection_key(VECTORS, {"method": "PCA"})
    assert projection_key(VECTORS + 1e-9, {"method": "PCA"}) != base
    assert projection_key(VECTORS, {"method": "t-SNE"}) != base


def test_a_damaged_file_is_computed_again():
    params = {"method": "PCA", "perplexity": 30.0, "neighbours": 15, "min_dist": 0.1, "seed": 0}
    cached_project(VECTORS, method="PCA")
    path = projection_cache.cache_dir() / "projections" / f"{projection_key(VECTORS, params)}.npz"
    path.write_bytes(b"broken")
    np.testing.assert_allclose(cached_project(VECTORS, method="PCA").coords, project(VECTORS, method="PCA").coords)


def test_a_stored_projection_is_only_read_never_computed(monkeypatch):
    vectors = VECTORS * 3
    monkeypatch.setattr(projection_cache, "project", lambda *a, **k: pytest.fail("computed"))
    assert stored_projection(vectors, method="t-SNE", perplexity=12, seed=4) is None
    monkeypatch.undo()
    made = cached_project(vectors, method="t-SNE", perplexity=12, seed=4)
    np.testing.assert_array_equal(stored_projection(vectors, method="t-SNE", perplexity=12, seed=4).coords,
                                  made.coords)


def test_an_aligned_pair_is_read_back_from_disk_and_keyed_by_both_spaces(monkeypatch):
    b = VECTORS + np.random.default_rng(1).normal(scale=0.1, size=VECTORS.shape)
    assert stored_aligned(VECTORS, b, neighbours=5) is None
    first = cached_aligned(VECTORS, b, neighbours=5)
    monkeypatch.setattr(projection_cache, "aligned_umap", lambda *a, **k: pytest.fail("computed again"))
    again = stored_aligned(VECTORS, b, neighbours=5)
    for stored, computed in zip(again, first):
        np.testing.assert_array_equal(stored.coords, computed.coords)
    assert stored_aligned(b, VECTORS, neighbours=5) is None  # A and B swapped
    assert stored_aligned(VECTORS, b, neighbours=6) is None
    assert aligned_key(VECTORS, b, {}) != aligned_key(VECTORS[:, :4], np.hstack([VECTORS[:, 4:], b]), {})
