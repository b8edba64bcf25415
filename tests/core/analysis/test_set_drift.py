"""Two sets in one space (core.analysis.set_drift) against independent computations: MMD² by its double sums over
pairs, its permutation p-value by a loop over the same seeded permutations, the σ by scipy's pdist, the domain
classifier's AUC by scikit-learn's own cross_validate with the same grouped folds and grid, nearest texts by
scikit-learn's NearestNeighbors, and each cluster's Fisher test and Benjamini–Hochberg adjustment written out; on
data shaped like a log (one line dominating both sets: ../shared/data/messy/), a finite MMD² and a p that is neither
small nor 0."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from scipy.spatial.distance import pdist
from sklearn.linear_model import LogisticRegressionCV
from sklearn.metrics import roc_auc_score
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import NearestNeighbors
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from core.analysis.set_drift import (
    centroid_cosine,
    cluster_shares,
    median_sigma,
    mmd_test,
    nearest,
    separability,
    set_codes,
)
from tests.probing import grouped_splits


def mmd2_by_pairs(x: np.ndarray, y: np.ndarray, kernel) -> float:
    """The unbiased estimator, each sum over pairs written out."""
    m, n = len(x), len(y)
    xx = sum(kernel(x[i], x[j]) for i in range(m) for j in range(m) if i != j) / (m * (m - 1))
    yy = sum(kernel(y[i], y[j]) for i in range(n) for j in range(n) if i != j) / (n * (n - 1))
    xy = sum(kernel(x[i], y[j]) for i in range(m) for j in range(n)) / (m * n)
    return xx + yy - 2 * xy


def sets(shift: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.normal(size=(24, 4)), rng.normal(size=(18, 4)) + shift


def test_mmd2_and_its_p_value_equal_the_sums_over_pairs_for_the_same_seeded_permutations():
    a, b = sets(0.4)
    pooled = np.vstack([a, b])
    sigma = float(np.median(pdist(pooled)))
    gaussian = lambda u, v: np.exp(-np.sum((u - v) ** 2) / (2 * sigma**2))  # noqa: E731
    found = mmd_test(a, b, permutations=40, seed=3)
    scale = float(np.mean(np.sum(pooled**2, axis=1)))
    assert found.sigma == pytest.approx(sigma) == median_sigma(euclidean_distances(pooled, squared=True), scale)
    observed = mmd2_by_pairs(a, b, gaussian)
    assert found.mmd2 == pytest.approx(observed, rel=1e-10)
    rng, labels = np.random.default_rng(3), np.r_[np.ones(len(a)), np.zeros(len(b))]
    permuted = []
    for _ in range(40):
        order = rng.permutation(labels).astype(bool)
        permuted.append(mmd2_by_pairs(pooled[order], pooled[~order], gaussian))
    # the observed split counts as one of the splits: p is never 0
    assert found.p_value == (1 + np.sum(observed <= np.array(permuted))) / 41
    assert found.permutations == 40


def test_p_is_never_0_even_where_no_permutation_reaches_the_observed_mmd2():
    found = mmd_test(*sets(5.0), permutations=200, seed=0)
    assert found.p_value == pytest.approx(1 / 201) and found.p_value > 0


def test_sigma_leaves_out_equal_vectors_where_they_are_most_pairs():
    rng = np.random.default_rng(5)
    common = rng.normal(size=4)
    a = np.vstack([np.tile(common, (40, 1)), rng.normal(size=(10, 4))])
    b = np.vstack([np.tile(common, (40, 1)), rng.normal(size=(10, 4))])
    pooled = np.vstack([a, b])
    distances = pdist(pooled)
    assert np.median(distances) == 0  # the median over all pairs: a kernel of width 0
    found = mmd_test(a, b, permutations=200, seed=0)
    assert found.sigma == pytest.approx(float(np.median(distances[distances > 0])))
    assert np.isfinite(found.mmd2) and found.p_value > 0.01


def test_sets_of_one_vector_are_refused_in_one_sentence():
    same = np.ones((30, 4))
    with pytest.raises(ValueError, match="Every text of the two sets has the same vector"):
        mmd_test(same, same.copy(), permutations=10)


def test_sets_far_apart_have_a_small_p_and_sets_of_one_distribution_a_large_one():
    near, far = mmd_test(*sets(0.0, seed=1), seed=0), mmd_test(*sets(2.0, seed=1), seed=0)
    assert far.p_value < 0.01 < 0.05 < near.p_value and far.mmd2 > near.mmd2


def test_sparse_rows_use_a_linear_kernel():
    a, b = sets(0.5)
    found = mmd_test(sp.csr_matrix(a), sp.csr_matrix(b), permutations=10, seed=0)
    assert found.sigma is None
    assert found.mmd2 == pytest.approx(mmd2_by_pairs(a, b, np.dot), rel=1e-10)


def test_the_domain_classifiers_auc_is_scikit_learns_cross_validated_auc_with_the_same_folds_and_grid():
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(40, 6)), rng.normal(size=(35, 6)) + [0.6, 0, 0, 0, 0, 0]
    pooled, codes = np.vstack([a, b]), set_codes(40, 35)
    groups = np.r_[np.arange(60), np.arange(15)]  # the first 15 texts of each set are the same 15 texts
    found = separability(pooled, codes, groups, seed=4)
    reference = []
    for train, test in grouped_splits(codes, groups, 5, 4):
        assert not set(groups[train]) & set(groups[test])
        inner = grouped_splits(codes[train], groups[train], 3, 4)
        probe = make_pipeline(StandardScaler(), LogisticRegressionCV(
            Cs=[1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0], cv=inner, scoring="accuracy", max_iter=1000,
            l1_ratios=(0.0,), use_legacy_attributes=False)).fit(pooled[train], codes[train])
        reference.append(roc_auc_score(codes[test], probe.predict_proba(pooled[test])[:, 1]))
    np.testing.assert_allclose(found.folds, reference, atol=1e-12)
    low, high = found.interval()
    half = stats.t.ppf(0.975, 4) * np.std(reference, ddof=1) / np.sqrt(5)
    assert (low, high) == pytest.approx((max(0, np.mean(reference) - half), min(1, np.mean(reference) + half)))


def test_nearest_distances_are_scikit_learns_cosine_neighbours():
    a, b = sets(0.3)
    found = nearest(a, b)
    across = NearestNeighbors(n_neighbors=1, metric="cosine").fit(a).kneighbors(b)[0][:, 0]
    within = NearestNeighbors(n_neighbors=2, metric="cosine").fit(a).kneighbors(a)[0][:, 1]
    back = NearestNeighbors(n_neighbors=1, metric="cosine").fit(b).kneighbors(a)[0][:, 0]
    np.testing.assert_allclose(found.current_to_reference, across, atol=1e-12)
    np.testing.assert_allclose(found.reference_to_reference, within, atol=1e-12)
    np.testing.assert_allclose(found.reference_to_current, back, atol=1e-12)
    assert centroid_cosine(a, b) == pytest.approx(
        1 - float(pdist([a.mean(axis=0), b.mean(axis=0)], metric="cosine")[0]))


def test_each_clusters_shares_fisher_test_and_benjamini_hochberg_adjustment():
    reference = ["rain today"] * 30 + ["guitar music"] * 10 + ["stock market"] * 10
    current = ["rain today"] * 10 + ["guitar music"] * 30 + ["stock market"] * 10
    clusters = np.array([{"rain": 0, "guitar": 1, "stock": 2}[text.split()[0]] for text in reference + current])
    shares = cluster_shares(reference + current, clusters, set_codes(50, 50)).set_index("cluster")
    assert shares.index.tolist()[0] == "1"  # the new set over-represents guitar music most
    raw = {}
    for cluster, new, old in (("0", 10, 30), ("1", 30, 10), ("2", 10, 10)):
        assert shares.loc[cluster, "current_share"] == new / 50 and shares.loc[cluster, "reference_share"] == old / 50
        raw[cluster] = stats.fisher_exact([[new, 50 - new], [old, 50 - old]]).pvalue
    ordered = sorted(raw, key=raw.get)  # Benjamini–Hochberg: p·m/rank, then the running minimum from the largest
    scaled = [raw[c] * 3 / (rank + 1) for rank, c in enumerate(ordered)]
    adjusted = {c: min(min(scaled[rank:]), 1.0) for rank, c in enumerate(ordered)}
    for cluster in raw:
        assert shares.loc[cluster, "p_value"] == pytest.approx(raw[cluster])
        assert shares.loc[cluster, "p_adjusted"] == pytest.approx(adjusted[cluster])
    assert "guitar" in shares.loc["1", "keywords"]


def test_texts_repeated_in_one_set_do_not_tell_the_sets_apart():
    """60 texts each three times, each text's copies in one set chosen at random: nothing tells the sets apart. Split
    by rows, a text's copies sit on both sides of a fold and the classifier learns them (the row split's AUC shows
    the leak); split by texts, the AUC stays near 0.5."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    rng = np.random.default_rng(3)
    texts = rng.normal(size=(60, 100))  # 60 points in 100 dimensions: any labelling of them is separable
    side = rng.integers(0, 2, 60)
    rows = np.tile(np.arange(60), 3)
    pooled, codes = texts[rows], side[rows]
    leaked = cross_val_score(LogisticRegression(C=100.0, max_iter=1000), pooled, codes, scoring="roc_auc",
                             cv=StratifiedKFold(5, shuffle=True, random_state=0)).mean()
    assert leaked > 0.9
    assert separability(pooled, codes, rows).auc < 0.7
