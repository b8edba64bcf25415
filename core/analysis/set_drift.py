"""How far a new set of texts has drifted from a reference set, in one space: the numbers of "Compare two sets" (the
Map page) and `python -m core drift`, on one vector a text for each set.

- **MMD²**, the unbiased estimator (Gretton et al. 2012), with the Gaussian kernel exp(−‖x−y‖² / (2σ²)), σ the
  median Euclidean distance over the pairs of different vectors of the two sets together (a linear kernel for a
  sparse model's rows), and its p-value from B seeded permutations of the set labels, (1 + the permutations whose
  MMD² is at least the observed one) / (1 + B): the observed split counts as one of the splits, so p is never 0.
  Every permutation's three block sums come from one matrix product with the kernel matrix. Pairs of equal vectors
  are left out of σ's median: where one text dominates a log, most pairs are equal and their median distance is 0.
- **A domain classifier**: the probe of what each layer knows (core.analysis.probes) predicting the set, scored by its
  cross-validated ROC AUC with a 95% interval over the folds (0.5: the sets cannot be told apart); a text in both
  sets, or repeated, is on one side of every split.
- **Where and which**: the cosine between the centroids; each new text's cosine distance to its nearest reference text
  against each reference text's to its nearest other; clusters of both sets together with each set's share of them,
  a Fisher exact test per cluster and the Benjamini–Hochberg correction; the new texts farthest from every reference
  text (new topics) and the reference texts farthest from every new one (topics gone)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats
from sklearn.metrics import roc_auc_score
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.preprocessing import normalize

from core.analysis.map.clusters import cluster_keywords
from core.analysis.probes import Matrix, cross_validate, outer_folds
from core.analysis.statistics import SEED, t_interval

PERMUTATIONS = 1000
MAX_TEXTS = 5000  # texts of a set compared: a larger set is sampled to a seeded MAX_TEXTS
MIN_TEXTS = 20  # texts a set needs
TOP = 20  # new topics and topics gone listed
BATCH = 100  # permutations a matrix product takes at once
EQUAL = 1e-9  # a squared distance under this share of the rows' mean squared length is two equal vectors


@dataclass(frozen=True)
class Mmd:
    mmd2: float
    p_value: float
    permutations: int
    sigma: float | None  # the Gaussian kernel's; None for the linear kernel


def _dense(values: Any) -> np.ndarray:
    """A product of rows, sparse or not, as a dense float64 array."""
    return np.asarray(values.toarray() if sp.issparse(values) else values, dtype=np.float64)


def median_sigma(squared: np.ndarray, scale: float) -> float:
    """The median Euclidean distance over the pairs of rows that differ, from their squared distances; ValueError in
    one sentence where every row is the same vector. `scale` is the rows' mean squared length: a squared distance
    under EQUAL of it is two equal vectors (computed as ‖x‖² + ‖y‖² − 2x·y, equal vectors' is rounding noise, not
    0)."""
    upper = squared[np.triu_indices(len(squared), k=1)]
    apart = upper[upper > EQUAL * scale]
    if not len(apart):
        raise ValueError("Every text of the two sets has the same vector, so there is no distance to compare them "
                         "by: give sets of different texts.")
    return float(np.median(np.sqrt(apart)))


def kernel_matrix(pooled: Matrix) -> tuple[np.ndarray, float | None]:
    """exp(−‖x−y‖² / (2σ²)) between every two rows, σ their median distance (the squared distances computed once for
    both, and turned into the kernel in place); for a sparse model's rows, the dot product and no σ (a linear
    kernel)."""
    if sp.issparse(pooled):
        return _dense(pooled @ pooled.T), None
    kernel = euclidean_distances(pooled, squared=True)
    sigma = median_sigma(kernel, float(np.mean(np.einsum("ij,ij->i", pooled, pooled))))
    kernel /= -2 * sigma**2
    return np.exp(kernel, out=kernel), sigma


def mmd2_of(kernel: np.ndarray, first: np.ndarray, totals: np.ndarray, diagonal: np.ndarray) -> np.ndarray:
    """The unbiased MMD² of each split of the kernel's rows: `first` (rows, splits) is 1 where a row is in the first
    set of that split, 0 in the second; `totals` is each row's kernel sum and `diagonal` the kernel's diagonal (the
    same for every split)."""
    first = np.asarray(first, dtype=np.float64)
    second = 1.0 - first
    m, n = first.sum(axis=0), second.sum(axis=0)
    into_first = kernel @ first  # each row's kernel sum over the first set, per split
    within_first = (first * into_first).sum(axis=0) - diagonal @ first
    across = (second * into_first).sum(axis=0)
    within_second = (second * (totals[:, None] - into_first)).sum(axis=0) - diagonal @ second
    return within_first / (m * (m - 1)) + within_second / (n * (n - 1)) - 2 * across / (m * n)


def mmd_test(a: Matrix, b: Matrix, *, permutations: int = PERMUTATIONS, seed: int = SEED) -> Mmd:
    """MMD² of the sets `a` and `b` (one vector a row) and its p-value from `permutations` seeded permutations."""
    rng = np.random.default_rng(seed)
    pooled = sp.vstack([a, b]).tocsr() if sp.issparse(a) else np.vstack([a, b]).astype(np.float64)
    kernel, sigma = kernel_matrix(pooled)
    labels = np.r_[np.ones(a.shape[0]), np.zeros(b.shape[0])]
    totals, diagonal = kernel.sum(axis=1), np.diag(kernel).copy()  # read by every split: computed once
    observed = float(mmd2_of(kernel, labels[:, None], totals, diagonal)[0])
    permuted = []
    for start in range(0, permutations, BATCH):
        count = min(BATCH, permutations - start)
        permuted.append(mmd2_of(kernel, np.column_stack([rng.permutation(labels) for _ in range(count)]), totals,
                                diagonal))
    if not np.isfinite(observed):
        raise ValueError(f"MMD² came out as {observed} (a kernel width of {sigma}), not a number to judge drift by: "
                         "check the vectors for NaN or infinite values.")
    beaten = int(np.sum(observed <= np.concatenate(permuted))) if permutations else 0
    return Mmd(observed, (1 + beaten) / (1 + permutations), permutations, sigma)


@dataclass(frozen=True)
class Separability:
    """The domain classifier's cross-validated ROC AUC: each fold's, their mean and its 95% interval."""

    folds: np.ndarray

    @property
    def auc(self) -> float:
        return float(self.folds.mean())

    def interval(self) -> tuple[float, float]:
        return t_interval(self.folds)


def set_codes(reference: int, current: int) -> np.ndarray:
    """0 for each reference text, then 1 for each new one."""
    return np.r_[np.zeros(reference, dtype=np.int64), np.ones(current, dtype=np.int64)]


def separability(pooled: Matrix, codes: np.ndarray, groups: np.ndarray, *, seed: int = SEED) -> Separability:
    """The probe (core.analysis.probes) predicting the set, scored on each outer fold by ROC AUC; `groups` keeps the
    rows of one text on one side of every split."""
    found = cross_validate(pooled, codes, groups, 2, seed=seed)
    return Separability(np.array([roc_auc_score(codes[test], found.probabilities[test, 1])
                                  for _, test in outer_folds(codes, groups, seed)]))


def _cosines(a: Matrix, b: Matrix) -> np.ndarray:
    """The cosine of every row of `a` with every row of `b` (a sparse model's rows kept sparse)."""
    return _dense(normalize(a) @ normalize(b).T)


def centroid_cosine(reference: Matrix, current: Matrix) -> float:
    a, b = (np.asarray(rows.mean(axis=0), dtype=np.float64).ravel() for rows in (reference, current))
    return float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)


@dataclass(frozen=True)
class Nearest:
    """Cosine distances to the nearest text: each new text's to the reference set, each reference text's to the rest
    of the reference set and to the new set."""

    current_to_reference: np.ndarray
    reference_to_reference: np.ndarray
    reference_to_current: np.ndarray


def nearest(reference: Matrix, current: Matrix) -> Nearest:
    across = 1.0 - _cosines(current, reference)
    within = 1.0 - _cosines(reference, reference)
    np.fill_diagonal(within, np.inf)
    return Nearest(across.min(axis=1), within.min(axis=1), across.min(axis=0))


def cluster_shares(texts: Sequence[str], clusters: np.ndarray, codes: np.ndarray) -> pd.DataFrame:
    """Per cluster of both sets together: its keywords, each set's share of its texts in it, the new set's share
    over the reference's, the Fisher exact test's p-value (two-sided) and its Benjamini–Hochberg adjustment; the
    clusters the new set over-represents most first."""
    names = [str(name) for name in clusters]
    keywords = cluster_keywords(texts, names).set_index("cluster")["keywords"]
    frame = pd.DataFrame({"cluster": names, "current": codes})
    sizes = np.bincount(codes, minlength=2)
    rows = []
    for name, members in frame.groupby("cluster", sort=False)["current"]:
        inside = np.bincount(members.to_numpy(), minlength=2)
        table = [[inside[1], sizes[1] - inside[1]], [inside[0], sizes[0] - inside[0]]]
        rows.append({"cluster": name, "keywords": keywords.get(name, ""), "reference_share": inside[0] / sizes[0],
                     "current_share": inside[1] / sizes[1], "p_value": float(stats.fisher_exact(table).pvalue)})
    shares = pd.DataFrame(rows)
    shares["p_adjusted"] = stats.false_discovery_control(shares["p_value"].to_numpy(), method="bh")
    shares["ratio"] = shares["current_share"] / shares["reference_share"].where(shares["reference_share"] > 0)
    return shares.sort_values(["ratio", "current_share"], ascending=False, kind="stable",
                              na_position="first").reset_index(drop=True)


def farthest(distances: np.ndarray, texts: Sequence[str], top: int = TOP) -> pd.DataFrame:
    """The `top` texts whose nearest text of the other set is farthest, farthest first."""
    order = np.argsort(-distances, kind="stable")[:top]
    return pd.DataFrame({"text": [texts[i] for i in order], "distance": distances[order]})
