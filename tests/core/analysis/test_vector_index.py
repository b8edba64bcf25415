"""The index a large corpus is searched with: exact below the threshold, FAISS HNSW above, each checked against a
full NumPy score matrix."""

import numpy as np
import pytest

from core.analysis import index_store, vector_index
from core.analysis.index_store import stored_index
from core.analysis.vector_index import EXACT_UP_TO, IndexParams, build_index, measured_recall

pytestmark = pytest.mark.usefixtures("one_omp_thread")  # HNSW graphs the same on every run


def clustered(rows: int, dims: int = 48, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, dims))
    return (centres[rng.integers(0, 20, rows)] + 0.6 * rng.standard_normal((rows, dims))).astype(np.float32)


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_the_threshold_picks_exact_search_up_to_it_and_hnsw_above():
    assert IndexParams.for_rows(EXACT_UP_TO).method == "exact"
    assert IndexParams.for_rows(EXACT_UP_TO + 1).method == "hnsw"


def test_exact_search_returns_numpys_top_ten():
    vectors, queries = clustered(3000), clustered(5, seed=1)
    hits = build_index(vectors, IndexParams("exact")).search(queries, 10)
    scores = unit(queries) @ unit(vectors).T
    assert (np.sort(hits.indices, axis=1) == np.sort(np.argsort(-scores, axis=1)[:, :10], axis=1)).all()
    np.testing.assert_allclose(hits.scores, -np.sort(-scores, axis=1)[:, :10], atol=1e-5)


def test_hnsw_scores_are_the_cosines_of_the_texts_it_returns_and_its_recall_is_measured_honestly():
    vectors = clustered(4000)
    index = build_index(vectors, IndexParams("hnsw", m=8, ef_construction=16, ef_search=16))
    hits = index.search(vectors[:20], 10)
    np.testing.assert_allclose(hits.scores, np.take_along_axis(unit(vectors[:20]) @ unit(vectors).T, hits.indices, 1),
                               atol=1e-5)
    rows = np.random.default_rng(0).choice(4000, vector_index.RECALL_QUERIES, replace=False)
    full = unit(vectors[rows]) @ unit(vectors).T
    full[np.arange(len(rows)), rows] = -np.inf  # a text is not its own neighbour
    truth = np.argsort(-full, axis=1)[:, :10]
    got = [[i for i in row if i != r][:10] for r, row in zip(rows, index.search(vectors[rows], 11).indices)]
    expected = np.mean([len(set(t) & set(g)) / 10 for t, g in zip(truth, got)])
    assert index.recall_at_10 == pytest.approx(expected)
    assert 0.5 < index.recall_at_10 <= 1.0
    assert measured_recall(build_index(vectors, IndexParams("exact"))) == 1.0



def test_a_graph_short_of_the_target_recall_searches_wider_until_it_reaches_it_and_is_read_back_so():
    vectors = clustered(4000, seed=5)
    params = IndexParams("hnsw", m=4, ef_construction=8, ef_search=8)
    untuned = build_index(vectors, params)
    graph_alone = vector_index.VectorIndex(untuned.vectors, params, vector_index.hnsw_graph(untuned.vectors, params))
    assert measured_recall(graph_alone) < vector_index.TARGET_RECALL  # the starting efSearch falls short
    assert untuned.params.ef_search in vector_index.EF_SEARCH_STEPS
    assert untuned.graph.hnsw.efSearch == untuned.params.ef_search
    assert untuned.recall_at_10 == pytest.approx(measured_recall(untuned))
    assert untuned.recall_at_10 >= vector_index.TARGET_RECALL or untuned.params.ef_search == 512
    assert f"efSearch {untuned.params.ef_search})" in untuned.caption
    first = stored_index(vectors, params)
    again = index_store.read_index(index_store.index_key(vectors, params), vectors, params)
    assert again is not None and again.params == first.params and again.recall_at_10 == first.recall_at_10

def test_an_index_is_read_back_from_disk_not_built_again(monkeypatch):
    vectors = clustered(1500)
    params = IndexParams("hnsw", m=8, ef_construction=16)
    first = stored_index(vectors, params)

    def no_build(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(index_store, "build_index", no_build)
    again = stored_index(vectors, params)
    assert again.recall_at_10 == first.recall_at_10
    assert (again.search(vectors[:5], 10).indices == first.search(vectors[:5], 10).indices).all()
    with pytest.raises(AssertionError, match="built again"):
        stored_index(vectors, IndexParams("hnsw", m=12, ef_construction=16))


def test_a_damaged_index_file_is_built_again():
    vectors = clustered(800, seed=3)
    params = IndexParams("hnsw", m=8, ef_construction=16)
    stored_index(vectors, params)
    graph_file, _ = index_store._files(index_store.index_key(vectors, params))
    graph_file.write_bytes(b"cut off")
    assert index_store.read_index(index_store.index_key(vectors, params), vectors, params) is None
    assert stored_index(vectors, params).graph.ntotal == 800
