import numpy as np
import pytest
import torch

from core.encoding.pooling import pool, resolve_pooling

# two texts: the second has one padding token
STATES = torch.tensor([[[1.0, 2.0], [3.0, -4.0], [5.0, 0.0]],
                       [[2.0, 2.0], [-2.0, 6.0], [100.0, 100.0]]])
MASK = torch.tensor([[1, 1, 1], [1, 1, 0]])


@pytest.mark.parametrize("mode, expected", [
    ("mean", [[3.0, -2 / 3], [0.0, 4.0]]),
    ("cls", [[1.0, 2.0], [2.0, 2.0]]),
    ("max", [[5.0, 2.0], [2.0, 6.0]]),
    ("mean_sqrt_len", [[9 / np.sqrt(3), -2 / np.sqrt(3)], [0.0, 8 / np.sqrt(2)]]),
])
def test_each_pooling_mode_matches_a_hand_computation_and_ignores_padding(mode, expected):
    np.testing.assert_allclose(pool(STATES, MASK, mode).numpy(), expected, rtol=1e-6)


def test_unknown_pooling_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="choose one of mean, cls, max, mean_sqrt_len"):
        pool(STATES, MASK, "median")


def test_default_pooling_means_the_models_own():
    assert resolve_pooling("default", "cls") == "cls"
    assert resolve_pooling("max", "cls") == "max"
