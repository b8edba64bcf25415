"""The measures of two spaces' agreement, each against an independent computation written here (NumPy formulas,
scipy's orthogonal_procrustes and spearmanr, scikit-learn's NearestNeighbors) and against properties."""

import json

import numpy as np
import pytest
from scipy.linalg import orthogonal_procrustes
from scipy.stats import ortho_group, spearmanr
from sklearn.neighbors import NearestNeighbors

from core.analysis import agreement as module
from core.analysis.agreement import (
    agreement,
    cka_matrix,
    linear_cka,
    neighbour_overlap,
    overlap_k,
    procrustes_residual,
    rsa_spearman,
)

pytestmark = pytest.mark.usefixtures("one_omp_thread")  # HNSW graphs the same on every run


def space(rows: int, dims: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((12, dims))
    return (centres[rng.integers(0, 12, rows)] + 0.7 * rng.standard_normal((rows, dims))).astype(np.float32)


def related(a: np.ndarray, dims: int, noise: float, seed: int = 1) -> np.ndarray:
    """Another space of the same texts: a random linear map of `a` plus noise."""
    rng = np.random.default_rng(seed)
    return (a @ rng.standard_normal((a.shape[1], dims)) + noise * rng.standard_normal((len(a), dims))).astype(
        np.float32)


def numpy_cka(x: np.ndarray, y: np.ndarray) -> float:
    x = x.astype(np.float64) - x.mean(axis=0)
    y = y.astype(np.float64) - y.mean(axis=0)
    return np.linalg.norm(x.T @ y) ** 2 / (np.linalg.norm(x.T @ x) * np.linalg.norm(y.T @ y))


def gram_cka(x: np.ndarray, y: np.ndarray) -> float:
    """CKA through centred Gram matrices (HSIC), the other way Kornblith et al. write it."""
    n = len(x)
    h = np.eye(n) - 1 / n
    k, l_ = h @ (x @ x.T) @ h, h @ (y @ y.T) @ h
    return float(np.sum(k * l_) / (np.linalg.norm(k) * np.linalg.norm(l_)))


def sklearn_neighbours(x: np.ndarray, k: int) -> np.ndarray:
    found = NearestNeighbors(n_neighbors=k + 1, metric="cosine").fit(x).kneighbors(x, return_distance=False)
    return np.array([[j for j in row if j != i][:k] for i, row in enumerate(found)])


def test_cka_equals_the_numpy_formula_and_the_gram_form_whatever_the_chunk(monkeypatch):
    a = space(300, 24)
    b = related(a, 40, noise=3.0)
    expected = numpy_cka(a, b)
    assert linear_cka(a, b) == pytest.approx(expected, rel=1e-9)
    assert gram_cka(a.astype(np.float64), b.astype(np.float64)) == pytest.approx(expected, rel=1e-9)
    monkeypatch.setattr(module, "ROWS_AT_ONCE", 7)  # rows accumulated in chunks, centring applied at the end
    assert linear_cka(a, b) == pytest.approx(expected, rel=1e-9)
    assert 0.05 < expected < 0.95  # a case that can fail: neither identical nor unrelated


def test_cka_of_a_space_with_itself_or_a_rotated_scaled_shifted_copy_is_one():
    a = space(400, 16)
    rotation = ortho_group.rvs(16, random_state=3)
    assert linear_cka(a, a) == pytest.approx(1.0, abs=1e-12)
    assert linear_cka(a, 3.5 * a @ rotation + 2.0) == pytest.approx(1.0, abs=1e-9)
    stretched = a * np.linspace(0.2, 3.0, 16)  # not uniform scaling: CKA says the spaces differ
    assert linear_cka(a, stretched) < 0.99


def test_overlap_equals_scikit_learns_nearest_neighbours_per_text():
    a = space(500, 20)
    b = related(a, 30, noise=4.0)
    found = neighbour_overlap(a, b, k=10)
    near_a, near_b = sklearn_neighbours(a, 10), sklearn_neighbours(b, 10)
    expected = np.array([len(set(x) & set(y)) / 10 for x, y in zip(near_a, near_b)])
    np.testing.assert_array_equal(np.sort(found.neighbours_a, axis=1), np.sort(near_a, axis=1))
    np.testing.assert_array_equal(np.sort(found.neighbours_b, axis=1), np.sort(near_b, axis=1))
    np.testing.assert_allclose(found.per_text, expected)
    assert found.mean == pytest.approx(expected.mean())
    assert 0.1 < found.mean < 0.9 and found.recall is None
    assert not (found.neighbours_a == np.arange(500)[:, None]).any()  # never a text's own neighbour


def test_overlap_of_identical_spaces_is_one_and_needs_more_than_k_texts():
    a = space(60, 8)
    found = neighbour_overlap(a, a * 4.0, k=5)  # cosine: a uniformly scaled copy has the same neighbours
    assert found.mean == 1.0 and (found.per_text == 1.0).all()
    repeated = np.repeat(a[:3], 8, axis=0)  # each text 8 times: more copies than the 5 neighbours asked for
    found = neighbour_overlap(repeated, repeated, k=5)
    assert not (found.neighbours_a == np.arange(24)[:, None]).any()
    assert all(len(set(row)) == 5 for row in found.neighbours_a) and found.mean == 1.0
    with pytest.raises(ValueError, match="needs at least 11 texts .* there are 10"):
        neighbour_overlap(a[:10], a[:10], k=10)
    with pytest.raises(ValueError, match="different numbers of texts"):
        neighbour_overlap(a, a[:-1], k=5)


def test_a_sample_of_texts_is_measured_among_all_texts():
    a = space(400, 16)
    b = related(a, 20, noise=4.0)
    every = neighbour_overlap(a, b, k=8)
    rows = np.array([3, 50, 51, 399])
    sampled = neighbour_overlap(a, b, k=8, rows=rows)
    np.testing.assert_array_equal(sampled.per_text, every.per_text[rows])
    np.testing.assert_array_equal(sampled.neighbours_b, every.neighbours_b[rows])
    assert sampled.sampled and not every.sampled and "a seeded sample of 4 texts" in sampled.caption
    spread = sampled.everywhere()
    assert len(spread) == 400 and np.isnan(spread).sum() == 396
    np.testing.assert_array_equal(spread[rows], every.per_text[rows])
    np.testing.assert_array_equal(every.everywhere(), every.per_text)
    back = type(sampled).from_json(json.loads(json.dumps(sampled.to_json())))
    for name in ("rows", "per_text", "neighbours_a", "neighbours_b"):
        np.testing.assert_array_equal(getattr(back, name), getattr(sampled, name))
    assert (back.k, back.texts, back.recall) == (8, 400, None)


def test_above_the_threshold_overlap_goes_through_hnsw_and_states_its_recall():
    a = space(3000, 32)
    b = related(a, 48, noise=4.0)
    exact = neighbour_overlap(a, b, k=10)
    approximate = neighbour_overlap(a, b, k=10, exact_up_to=1000)
    assert approximate.recall is not None and min(approximate.recall) > 0.9
    assert "HNSW" in approximate.caption and f"{approximate.recall[0]:.3f}" in approximate.caption
    assert not (approximate.neighbours_a == np.arange(3000)[:, None]).any()
    assert abs(approximate.mean - exact.mean) < 0.03


def test_rsa_is_spearman_of_the_cosine_matrices_upper_triangles():
    a = space(120, 10)
    b = related(a, 14, noise=5.0)

    def cosines(x):
        unit = x / np.linalg.norm(x, axis=1, keepdims=True)
        return (unit @ unit.T)[np.triu_indices(len(x), k=1)]

    assert rsa_spearman(a, b) == pytest.approx(spearmanr(cosines(a), cosines(b)).statistic, abs=1e-6)
    assert rsa_spearman(a, 2 * a) == pytest.approx(1.0)
    sampled = rsa_spearman(a, b, max_texts=50, seed=4)
    rows = np.sort(np.random.default_rng(4).permutation(120)[:50])
    assert sampled == pytest.approx(spearmanr(cosines(a[rows]), cosines(b[rows])).statistic, abs=1e-6)


def scipy_procrustes(x: np.ndarray, y: np.ndarray) -> float:
    width = max(x.shape[1], y.shape[1])
    x, y = (np.pad(m.astype(np.float64), ((0, 0), (0, width - m.shape[1]))) for m in (x, y))
    x, y = ((m - m.mean(axis=0)) / np.linalg.norm(m - m.mean(axis=0)) for m in (x, y))
    rotation, _ = orthogonal_procrustes(x, y)
    return float(np.linalg.norm(x @ rotation - y) ** 2)


@pytest.mark.parametrize("dims_b", [12, 20, 31])
def test_procrustes_equals_scipys_orthogonal_procrustes_on_zero_padded_normalised_spaces(dims_b):
    a = space(200, 20)
    b = related(a, dims_b, noise=2.0)
    expected = scipy_procrustes(a, b)
    assert procrustes_residual(a, b) == pytest.approx(expected, abs=1e-9)
    assert 0.05 < expected < 1.95


def test_procrustes_is_zero_for_a_rotated_scaled_shifted_copy():
    a = space(150, 9)
    rotation = ortho_group.rvs(9, random_state=5)
    assert procrustes_residual(a, 0.3 * a @ rotation - 1.0) == pytest.approx(0.0, abs=1e-9)


def test_agreement_gathers_the_four_measures_under_the_command_lines_keys():
    a = space(80, 12)
    b = related(a, 16, noise=3.0)
    found = agreement(a, b, k=10)
    assert found.record() == {"cka": pytest.approx(numpy_cka(a, b)),
                              "neighbour_overlap@10": pytest.approx(neighbour_overlap(a, b, k=10).mean),
                              "rsa_spearman": pytest.approx(rsa_spearman(a, b)),
                              "procrustes": pytest.approx(scipy_procrustes(a, b)), "texts": 80}
    sampled = agreement(a, b, k=10, overlap_texts=20, seed=3)
    assert sampled.overlap.sampled and len(sampled.overlap.rows) == 20 and sampled.cka == found.cka
    assert found.widths == (12, 16) and not found.few_texts and agreement(a[:15], b[:15], k=3).few_texts
    flat = np.ones((30, 4), np.float32)  # no variance at all: undefined, said as null rather than NaN
    record = agreement(flat, space(30, 4), k=3).record()
    assert record["cka"] is None and record["procrustes"] is None and record["rsa_spearman"] is None


def test_overlap_k_is_ten_or_half_of_each_texts_others():
    assert [overlap_k(n) for n in (2, 3, 5, 8, 21, 22, 1000)] == [1, 1, 2, 3, 10, 10, 10]


def test_cka_matrix_holds_linear_cka_of_every_pair_of_layers():
    a_layers = [space(100, 8, seed=s) for s in range(3)]
    b_layers = [related(a_layers[s % 3], 6, noise=1.0 + s, seed=s) for s in range(4)]
    matrix = cka_matrix(a_layers, b_layers)
    assert matrix.shape == (3, 4)
    for i, x in enumerate(a_layers):
        for j, y in enumerate(b_layers):
            assert matrix[i, j] == pytest.approx(numpy_cka(x, y), rel=1e-9)
    few = [x[:6] for x in a_layers]  # fewer texts than dimensions: measured through Gram matrices
    np.testing.assert_allclose(cka_matrix(few, [y[:6] for y in b_layers]),
                               [[numpy_cka(x, y[:6]) for y in b_layers] for x in few], rtol=1e-9)
    own = cka_matrix(a_layers)
    np.testing.assert_allclose(own, own.T)
    np.testing.assert_allclose(np.diag(own), 1.0)
    assert own[0, 1] == pytest.approx(numpy_cka(a_layers[0], a_layers[1]), rel=1e-9)
