import numpy as np
import pytest

from core.analysis.map import projection_cache
from core.analysis.map.projection import project
from core.analysis.map.projection_cache import (
    aligned_key,
    cached_aligned,
    cached_project,
    projection_key,
    read_aligned,
    read_stored,
)

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


def test_a_map_fitted_on_another_sample_size_or_placed_in_other_chunks_is_another_key(monkeypatch):
    from core.analysis.map import projection

    umap, pca = projection_key(VECTORS, {"method": "UMAP"}), projection_key(VECTORS, {"method": "PCA"})
    monkeypatch.setattr(projection, "FIT_POINTS", 10)
    assert projection_key(VECTORS, {"method": "UMAP"}) != umap
    monkeypatch.undo()
    monkeypatch.setattr(projection, "CHUNK", 10)
    assert projection_key(VECTORS, {"method": "UMAP"}) != umap
    assert projection_key(VECTORS, {"method": "PCA"}) == pca  # exact PCA is the same however it is read


def test_a_damaged_file_is_computed_again():
    params = {"method": "PCA", "perplexity": 30.0, "neighbours": 15, "min_dist": 0.1, "seed": 0}
    cached_project(VECTORS, method="PCA")
    path = projection_cache.cache_dir() / "projections" / f"{projection_key(VECTORS, params)}.npz"
    path.write_bytes(b"broken")
    np.testing.assert_allclose(cached_project(VECTORS, method="PCA").coords, project(VECTORS, method="PCA").coords)


def test_a_stored_projection_is_only_read_never_computed(monkeypatch):
    vectors = VECTORS * 3
    params = {"method": "t-SNE", "perplexity": 12, "neighbours": 15, "min_dist": 0.1, "seed": 4}
    monkeypatch.setattr(projection_cache, "project", lambda *a, **k: pytest.fail("computed"))
    assert read_stored(projection_key(vectors, params), len(vectors)) is None
    monkeypatch.undo()
    made = cached_project(vectors, **params)
    np.testing.assert_array_equal(read_stored(projection_key(vectors, params), len(vectors)).coords, made.coords)
    assert read_stored(projection_key(vectors, params), len(vectors) + 1) is None  # not these points


def test_an_aligned_pair_is_read_back_from_disk_and_keyed_by_both_spaces(monkeypatch):
    b = VECTORS + np.random.default_rng(1).normal(scale=0.1, size=VECTORS.shape)
    params = {"neighbours": 5, "min_dist": 0.1, "seed": 0}
    assert read_aligned(aligned_key(VECTORS, b, params), len(b)) is None
    first = cached_aligned(VECTORS, b, **params)
    monkeypatch.setattr(projection_cache, "aligned_umap", lambda *a, **k: pytest.fail("computed again"))
    again = cached_aligned(VECTORS, b, **params)
    for stored, computed in zip(again, first):
        np.testing.assert_array_equal(stored.coords, computed.coords)
    assert read_aligned(aligned_key(b, VECTORS, params), len(b)) is None  # A and B swapped
    assert read_aligned(aligned_key(VECTORS, b, {**params, "neighbours": 6}), len(b)) is None
    assert aligned_key(VECTORS, b, {}) != aligned_key(VECTORS[:, :4], np.hstack([VECTORS[:, 4:], b]), {})


def test_projection_params_are_the_keywords_project_takes_and_key_as_the_plain_dict_did():
    import inspect
    from dataclasses import fields

    from core.analysis.map.projection import ProjectionParams, project
    from core.analysis.map.projection_cache import projection_key

    keywords = {name: p.default for name, p in inspect.signature(project).parameters.items()
                if p.kind is p.KEYWORD_ONLY}
    defaults = {f.name: f.default for f in fields(ProjectionParams)}
    assert defaults.keys() == keywords.keys()
    assert {k: v for k, v in defaults.items() if k != "method"} == {k: v for k, v in keywords.items() if k != "method"}
    vectors = np.arange(12.0).reshape(4, 3)
    plain = {"method": "UMAP", "perplexity": 30.0, "neighbours": 5, "min_dist": 0.2, "seed": 3}
    assert projection_key(vectors, ProjectionParams("UMAP", 30.0, 5, 0.2, 3).options()) == \
        projection_key(vectors, plain)
