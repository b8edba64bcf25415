"""The two-set figures draw what they are given: the AUC of each layer with its interval, chance at 0.5, and each
set's nearest distances as a share of its own texts."""

import numpy as np

from core.analysis.set_drift import Nearest, Separability
from core.plots.set_drift import auc_by_layer_figure, nearest_figure


def test_the_auc_by_layer_is_each_layers_mean_over_its_folds_with_its_interval():
    scored = {layer: Separability(np.array([0.5, 0.6, 0.7, 0.55, 0.65]) + layer / 20) for layer in range(3)}
    figure = auc_by_layer_figure(scored)
    band, line, chance = figure.data
    np.testing.assert_allclose(line.y, [scored[layer].folds.mean() for layer in range(3)])
    assert list(line.x) == [0, 1, 2] and set(chance.y) == {0.5}
    np.testing.assert_allclose(band.y[:3], [scored[layer].interval()[1] for layer in range(3)])


def test_nearest_distances_are_drawn_as_each_sets_share():
    nearest = Nearest(np.array([0.5, 0.6, 0.7]), np.array([0.1, 0.2]), np.array([0.3, 0.4]))
    within, across = nearest_figure(nearest).data
    np.testing.assert_array_equal(within.x, [0.1, 0.2])
    np.testing.assert_array_equal(across.x, [0.5, 0.6, 0.7])
    assert within.histnorm == across.histnorm == "percent"
