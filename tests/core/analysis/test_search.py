import numpy as np
import pytest
import scipy.sparse as sp

from core.analysis.search import top_k, top_k_and_best_relevant, unit_rows


def best_relevant(queries, corpus, relevant, *, exclude=None, budget=None):
    options = {} if budget is None else {"budget": budget}
    return top_k_and_best_relevant(queries, corpus, 1, relevant, exclude=exclude, **options)[1]


@pytest.fixture(scope="module")
def vectors():
    rng = np.random.default_rng(0)
    queries, corpus = unit_rows(rng.standard_normal((7, 24))), unit_rows(rng.standard_normal((1000, 24)))
    queries.flags.writeable = corpus.flags.writeable = False  # shared by the module's tests: never changed
    return queries, corpus


def _reference(q, c, k):
    scores = q.astype(np.float64) @ c.astype(np.float64).T
    return np.argsort(-scores, axis=1, kind="stable")[:, :k], np.sort(scores, axis=1)[:, ::-1][:, :k]


@pytest.mark.parametrize("budget", [4 * 1000 * 7, 4 * 50, 4])
def test_top_k_equals_a_full_sort_whatever_the_block_size(vectors, budget):
    q, c = vectors
    hits = top_k(q, c, 15, budget=budget)
    ref_idx, ref_scores = _reference(q, c, 15)
    np.testing.assert_array_equal(hits.indices, ref_idx)
    np.testing.assert_allclose(hits.scores, ref_scores, atol=1e-6)
    assert hits.scores.dtype == np.float32


def test_k_larger_than_the_corpus_returns_the_whole_corpus_ranked(vectors):
    q, c = vectors
    hits = top_k(q, c[:5], 50)
    assert hits.indices.shape == (7, 5)
    assert sorted(hits.indices[0]) == [0, 1, 2, 3, 4]


def test_excluded_texts_never_appear(vectors):
    q, c = vectors
    plain = top_k(q, c, 3)
    exclude = [{int(row[0])} for row in plain.indices]
    hits = top_k(q, c, 3, exclude=exclude, budget=4 * 100)
    np.testing.assert_array_equal(hits.indices[:, :2], plain.indices[:, 1:])
    assert all(int(row[0]) not in hits.indices[i] for i, row in enumerate(plain.indices))


def test_sparse_rows_search_like_dense_ones(vectors):
    q, c = vectors
    hits = top_k(sp.csr_matrix(q), sp.csr_matrix(c), 10)
    np.testing.assert_array_equal(hits.indices, top_k(q, c, 10).indices)


def test_a_sparse_corpus_in_blocks_ranks_as_the_whole_product_and_its_postings_go_with_it():
    import gc

    from core.analysis.search import _POSTINGS

    corpus = sp.random(3000, 500, density=0.02, format="csr", dtype=np.float32, random_state=1)
    queries = sp.random(9, 500, density=0.05, format="csr", dtype=np.float32, random_state=2)
    scores = (queries @ corpus.T).toarray()
    expected = np.argsort(-scores, axis=1, kind="stable")[:, :10]  # ties: the lower index first
    whole, in_blocks = top_k(queries, corpus, 10), top_k(queries, corpus, 10, budget=4 * 700)
    np.testing.assert_array_equal(whole.indices, expected)
    np.testing.assert_array_equal(in_blocks.indices, expected)
    np.testing.assert_allclose(whole.scores, np.take_along_axis(scores, expected, axis=1), rtol=1e-6)
    key = id(corpus)
    assert key in _POSTINGS
    del corpus
    gc.collect()
    assert key not in _POSTINGS  # the inverted index is dropped with its corpus


def test_unit_rows_keeps_zero_rows_zero():
    out = unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]])



def test_unit_rows_share_rows_already_unit_and_scale_the_rest_like_numpy(tmp_path):
    rng = np.random.default_rng(1)
    raw = rng.standard_normal((70_000, 8)).astype(np.float32)  # more rows than one block of lengths
    expected = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    scaled = unit_rows(raw)
    np.testing.assert_allclose(scaled, expected, rtol=1e-6)
    assert not np.shares_memory(scaled, raw)
    np.save(tmp_path / "unit.npy", expected)
    mapped = np.load(tmp_path / "unit.npy", mmap_mode="r")
    assert np.shares_memory(unit_rows(mapped), mapped)
    nearly = expected.copy()
    nearly[-1] *= 1.001  # one row off unit length: every row is scaled again
    assert not np.shares_memory(unit_rows(nearly), nearly)

def test_best_relevant_rank_counts_every_better_text_in_the_whole_corpus(vectors):
    q, c = vectors
    order, _ = _reference(q, c, 1000)
    relevant = [{int(order[0, 17]), int(order[0, 400])}, {int(order[1, 0])}, set(), {int(order[3, 999])},
                {int(order[4, 2])}, {int(order[5, 5])}, {int(order[6, 3])}]
    best = best_relevant(q, c, relevant, budget=4 * 64)
    assert best.rank.tolist() == [18, 1, 0, 1000, 3, 6, 4]
    assert best.index[0] == order[0, 17] and best.index[2] == -1
    exclude = [{int(order[0, 0])}] + [set()] * 6
    assert best_relevant(q, c, relevant, exclude=exclude).rank[0] == 17


@pytest.mark.parametrize("budget", [4 * 1000 * 7, 4 * 64])  # one block per query row, and rows split in blocks
def test_top_k_and_best_relevant_together_equal_each_alone(vectors, budget):
    q, c = vectors
    order, _ = _reference(q, c, 1000)
    relevant = [{int(order[0, 17]), int(order[0, 400])}, {int(order[1, 0])}, set(), {int(order[3, 999])},
                {int(order[4, 2])}, {int(order[5, 5])}, {int(order[6, 3])}]
    exclude = [{int(order[0, 0])}, {int(order[1, 0])}] + [set()] * 5
    hits, best = top_k_and_best_relevant(q, c, 20, relevant, exclude=exclude, budget=budget)
    alone = top_k(q, c, 20, exclude=exclude, budget=budget)
    np.testing.assert_array_equal(hits.indices, alone.indices)
    np.testing.assert_array_equal(hits.scores, alone.scores)
    expected = best_relevant(q, c, relevant, exclude=exclude, budget=budget)
    for got, want in zip((best.rank, best.index, best.score), (expected.rank, expected.index, expected.score)):
        np.testing.assert_array_equal(got, want)
    assert best.rank.tolist() == [17, 0, 0, 1000, 3, 6, 4]
