"""The statistics the measurements share, against scipy and the definitions: a mean's t-interval is scipy's; the
corrected resampled t-test (Nadeau & Bengio 2003) is the paired t-test over folds with its variance inflated by
n_test/n_train, so never surer than the plain one; folds keep a text's rows together; a p-value is printed
"p < 0.001" below that, never "p = 0.000"."""

import numpy as np
import pytest
from scipy import stats

from core.analysis.statistics import corrected_resampled_t, grouped_folds, p_shown, p_text, t_interval


def test_the_interval_is_scipys_t_interval_cut_to_0_and_1():
    values = np.array([0.81, 0.84, 0.79, 0.9, 0.86])
    low, high = stats.t.interval(0.95, 4, loc=values.mean(), scale=stats.sem(values))
    assert t_interval(values) == pytest.approx((low, high))
    assert t_interval(np.array([0.97, 1.0, 1.0, 0.99, 1.0]))[1] == 1.0


@pytest.mark.parametrize("seed", range(5))
def test_the_corrected_test_is_the_paired_t_test_with_its_variance_inflated(seed):
    rng = np.random.default_rng(seed)
    first = rng.uniform(0.7, 0.9, 5)
    second = first - rng.normal(0.02, 0.03, 5)
    found = corrected_resampled_t(first, second, 0.2)
    naive = stats.ttest_rel(first, second, alternative="greater").pvalue
    assert found >= naive  # the folds' training sets overlap: never surer than the plain test
    # the corrected variance: (1/k + n_test/n_train) times the differences' variance, k = 5 folds, 0.2/0.8
    differences = first - second
    t = differences.mean() / np.sqrt((1 / 5 + 0.25) * differences.var(ddof=1))
    assert found == pytest.approx(stats.t.sf(t, 4))


def test_the_same_scores_on_every_fold_are_no_evidence_and_a_constant_gain_is():
    same = np.array([0.8, 0.82, 0.79, 0.81, 0.8])
    assert corrected_resampled_t(same, same, 0.2) == 1.0
    assert corrected_resampled_t(same + 0.05, same, 0.2) == 0.0


def test_grouped_folds_keep_each_texts_rows_on_one_side():
    groups = np.repeat(np.arange(40), 3)
    codes = np.repeat(np.arange(40) % 2, 3)
    for train, test in grouped_folds(codes, groups, 5):
        assert not set(groups[train]) & set(groups[test])
        assert set(codes[test]) == {0, 1}


@pytest.mark.parametrize("p, said", [(0.0009990009990009, "p < 0.001"), (0.001, "p = 0.001"), (0.4366, "p = 0.437"),
                                     (1.0, "p = 1.000")])
def test_a_p_value_is_printed_as_a_bound_below_0_001(p, said):
    assert p_text(p) == said and p_shown(p) == said.removeprefix("p ").removeprefix("= ")
