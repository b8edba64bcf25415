"""The statistics the measurements share: one seed, folds that never split equal texts, a mean's t-interval over
folds, the corrected resampled t-test of two models scored on the same folds, and a p-value as it is printed."""

from __future__ import annotations

import numpy as np
from scipy import stats
from sklearn.model_selection import StratifiedKFold

SEED = 0  # every seeded fold, permutation, sample and random direction of the measurements
LEVEL = 0.95  # the intervals' confidence
SMALLEST_SHOWN = 0.001  # a p-value under it is printed "p < 0.001"

Folds = list[tuple[np.ndarray, np.ndarray]]


def grouped_folds(codes: np.ndarray, groups: np.ndarray, count: int, seed: int = SEED) -> Folds:
    """`count` folds of the rows that keep each group (the rows of one text) whole, so a text repeated is on one side
    of every split and a probe is never scored on a text it was trained on: scikit-learn's StratifiedKFold (shuffled
    with the seed) over the groups, each stratified by its first row's code, each group's rows then following it.
    Where no text repeats, these are StratifiedKFold's folds of the rows themselves.

    Not scikit-learn's StratifiedGroupKFold: its greedy search over groups is a Python loop, 0.55 s a split of 2,000
    texts here (measured), and a probe view splits hundreds of times; this takes milliseconds."""
    ids, first, members = np.unique(groups, return_index=True, return_inverse=True)
    splitter = StratifiedKFold(count, shuffle=True, random_state=seed)
    folds = []
    for _, held in splitter.split(np.zeros(len(ids)), codes[first]):
        out = np.isin(members, held)
        folds.append((np.flatnonzero(~out), np.flatnonzero(out)))
    return folds


def t_interval(values: np.ndarray, *, low: float = 0.0, high: float = 1.0) -> tuple[float, float]:
    """The 95% interval of the mean of `values` (one per fold; Student's t), within `low` and `high`."""
    count = len(values)
    half = float(stats.t.ppf((1 + LEVEL) / 2, count - 1) * np.std(values, ddof=1) / np.sqrt(count))
    mean = float(np.mean(values))
    return max(low, mean - half), min(high, mean + half)


def corrected_resampled_t(first: np.ndarray, second: np.ndarray, test_share: float) -> float:
    """The one-sided p-value that `first` scores higher than `second` on the same folds: Nadeau & Bengio's (2003)
    corrected resampled t-test, whose variance term (1/k + n_test/n_train) allows for the folds' training sets
    overlapping (a plain paired t-test over folds is far too sure). `test_share` is the share of the rows a fold
    holds out; 1.0 where the two score alike on every fold and the difference is not positive."""
    differences = np.asarray(first, dtype=np.float64) - np.asarray(second, dtype=np.float64)
    count = len(differences)
    mean, variance = float(differences.mean()), float(differences.var(ddof=1))
    if variance == 0:
        return 0.0 if mean > 0 else 1.0
    t = mean / np.sqrt((1 / count + test_share / (1 - test_share)) * variance)
    return float(stats.t.sf(t, count - 1))


def p_shown(p_value: float) -> str:
    """A p-value's figure as a page's metric shows it: "< 0.001" below that, never "0.000"."""
    return f"< {SMALLEST_SHOWN}" if p_value < SMALLEST_SHOWN else f"{p_value:.3f}"


def p_text(p_value: float) -> str:
    """A p-value as the pages and commands print it in a sentence: "p < 0.001" below that, never "p = 0.000"."""
    shown = p_shown(p_value)
    return f"p {shown}" if shown.startswith("<") else f"p = {shown}"
