import numpy as np
import pytest
import torch

from core.models.pooling import CHOICES, MODES, UnknownPooling, mode_named, our_names, pool, pooling_module

# two texts: the second has one padding token, on the right (RIGHT) or on the left (LEFT)
RIGHT = torch.tensor([[[1.0, 2.0], [3.0, -4.0], [5.0, 0.0]],
                      [[2.0, 2.0], [-2.0, 6.0], [100.0, 100.0]]])
RIGHT_MASK = torch.tensor([[1, 1, 1], [1, 1, 0]])
LEFT = torch.tensor([[[1.0, 2.0], [3.0, -4.0], [5.0, 0.0]],
                     [[100.0, 100.0], [2.0, 2.0], [-2.0, 6.0]]])
LEFT_MASK = torch.tensor([[1, 1, 1], [0, 1, 1]])
EXPECTED = {  # by hand: the second text is (2, 2), (-2, 6) wherever its padding sits
    "mean": [[3.0, -2 / 3], [0.0, 4.0]],
    "cls": [[1.0, 2.0], [2.0, 2.0]],
    "max": [[5.0, 2.0], [2.0, 6.0]],
    "mean_sqrt_len": [[9 / np.sqrt(3), -2 / np.sqrt(3)], [0.0, 8 / np.sqrt(2)]],
    "weightedmean": [[(1 + 6 + 15) / 6, (2 - 8 + 0) / 6], [(2 - 4) / 3, (2 + 12) / 3]],
    "lasttoken": [[5.0, 0.0], [-2.0, 6.0]],
}


@pytest.mark.parametrize("name", MODES)
@pytest.mark.parametrize("states, mask", [(RIGHT, RIGHT_MASK), (LEFT, LEFT_MASK)], ids=["right", "left"])
def test_each_mode_matches_a_hand_computation_on_either_padding_side(name, states, mask):
    module = pooling_module((name,), 2)
    np.testing.assert_allclose(pool(module, states, mask).numpy(), EXPECTED[name], rtol=1e-6)


def test_several_modes_concatenate_in_sentence_transformers_order():
    module = pooling_module(("mean", "max"), 2)
    np.testing.assert_allclose(pool(module, RIGHT, RIGHT_MASK).numpy(),
                               np.hstack([EXPECTED["mean"], EXPECTED["max"]]), rtol=1e-6)


def test_a_prompt_left_out_of_pooling_does_not_count():
    module = pooling_module(("mean",), 2, include_prompt=False)
    np.testing.assert_allclose(pool(module, RIGHT, RIGHT_MASK, prompt_length=1).numpy(),
                               [[4.0, -2.0], [-2.0, 6.0]], rtol=1e-6)


def test_names_map_both_ways_and_unknown_ones_are_refused_with_the_choices():
    assert our_names("mean_sqrt_len_tokens") == ("mean_sqrt_len",)
    assert our_names(["mean", "max"]) == ("mean", "max")
    assert CHOICES[0] == "default" and set(CHOICES[1:]) == set(MODES)
    with pytest.raises(UnknownPooling, match="choose one of default, mean, cls"):
        mode_named("median")
    with pytest.raises(UnknownPooling, match="cannot reproduce"):
        our_names("median")
