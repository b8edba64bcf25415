import numpy as np
import pytest

from core.analysis.attribution import attribute_pair, block_modules
from core.encoding.encoder import encode

A, B = "The bank by the river.", "A river bank with grass."


def cosine(model, a, b, **options) -> float:
    u, v = encode(model, [a, b], **options).vectors.astype(np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def test_the_score_is_the_encoders_and_completeness_improves_with_more_steps(minilm):
    gaps = []
    for steps in (2, 8, 32):
        result = attribute_pair(minilm, A, B, attribution_layer=0, steps=steps)
        for side in (result.a, result.b):
            assert side.score == pytest.approx(cosine(minilm, A, B), abs=1e-5)
            assert len(side.attributions) == len(side.tokens)
            assert side.attributions.sum() - side.change == pytest.approx(side.gap, abs=1e-4)
        gaps.append(abs(result.a.gap) + abs(result.b.gap))
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 0.01


@pytest.mark.parametrize("pooling", ["cls", "max", "default"])
def test_any_pooling_and_an_intermediate_layer(tiny_bert, pooling):
    result = attribute_pair(tiny_bert, A, B, pooling=pooling, attribution_layer=1, steps=32)
    assert result.attribution_layer == 1 and result.score_layer == tiny_bert.num_layers
    assert abs(result.a.gap) < 0.05 * max(abs(result.a.change), 1e-3) + 1e-3


def test_the_blocks_of_every_layout_are_found(tiny_bert):
    assert len(block_modules(tiny_bert.network)) == tiny_bert.num_layers


@pytest.mark.parametrize("layer, steps, message", [(5, 8, "from 0 to 2"), (1, 1, "at least 2 steps")])
def test_bad_options_are_one_sentence(tiny_bert, layer, steps, message):
    with pytest.raises(ValueError, match=message):
        attribute_pair(tiny_bert, A, B, attribution_layer=layer, steps=steps)
