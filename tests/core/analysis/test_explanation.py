import numpy as np
import pytest
import torch

from core.analysis.explanation import NoExactSplit, explain_pair
from core.encoding.encoder import encode

A, B = "A man is playing a guitar on stage.", "Someone plays an instrument in front of a crowd."


def encoder_cosine(model, a, b, **options) -> float:
    u, v = encode(model, [a, b], **options).vectors.astype(np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


@pytest.mark.parametrize("pooling", ["default", "mean", "max", "mean_sqrt_len"])
@pytest.mark.parametrize("normalize", [False, True])
def test_the_split_sums_to_the_encoders_score_at_every_layer(minilm, pooling, normalize):
    for layer in range(minilm.num_layers + 1):
        explanation = explain_pair(minilm, A, B, pooling=pooling, layer=layer)
        expected = encoder_cosine(minilm, A, B, pooling=pooling, layer=layer, normalize=normalize)
        assert explanation.total == pytest.approx(expected, abs=1e-5), (pooling, layer)
        assert explanation.score == pytest.approx(expected, abs=1e-5)
        np.testing.assert_allclose(explanation.a.totals.sum(), explanation.total, atol=1e-9)
        np.testing.assert_allclose(explanation.b.totals, explanation.matrix.sum(axis=0))


def test_the_matrix_has_one_cell_per_token_pair_specials_included(minilm):
    explanation = explain_pair(minilm, A, B)
    assert explanation.matrix.shape == (len(explanation.a.tokens), len(explanation.b.tokens))
    assert explanation.a.tokens[0] == "[CLS]" and explanation.a.special[0] and explanation.a.special[-1]
    start, end = explanation.a.spans[3]
    assert A[start:end].lower() == explanation.a.tokens[3]


def test_max_pooling_gives_each_dimension_to_one_pair_of_tokens():
    a = np.array([[1.0, 0.0, 2.0], [3.0, 1.0, 0.0]])
    b = np.array([[0.5, 2.0, 1.0]])
    from core.analysis.explanation import _pair_matrix
    from core.models.pooling import mode_named

    products, u, v = _pair_matrix(a, b, mode_named("max"))
    np.testing.assert_array_equal(u, [3.0, 1.0, 2.0])
    np.testing.assert_allclose(products, [[2.0], [1.5 + 2.0]])  # dim 2 from token 0; dims 0 and 1 from token 1
    assert products.sum() == pytest.approx(u @ v)


def test_the_shared_and_the_specific_parts_add_up_to_the_score(minilm):
    from core.data.stsb import stsb_sentences
    from core.models.loading import load_model

    reference = stsb_sentences("dev")[:100]
    unrelated = ("A man is playing a guitar on stage.", "The stock market fell sharply today.")
    trained = explain_pair(minilm, *unrelated, reference=reference)
    untrained = explain_pair(load_model("untrained-bert", "cpu"), *unrelated, reference=reference)
    for explanation in (trained, untrained):
        assert explanation.shared + explanation.specific == pytest.approx(explanation.score, abs=1e-12)
    # random weights find unrelated texts similar only through what every text shares at the layer
    assert untrained.score > 0.5 and abs(untrained.specific) < 0.1 * untrained.shared
    assert abs(trained.shared) < 0.5 * untrained.shared
    plain = explain_pair(minilm, A, B, layer=0)
    assert plain.shared == 0 and plain.specific == pytest.approx(plain.score)


def test_top_pairs_are_the_strongest_cells_with_their_share(minilm):
    explanation = explain_pair(minilm, A, B)
    top = explanation.top_pairs(5)
    assert len(top) == 5 and top["contribution"].abs().is_monotonic_decreasing
    assert top["contribution"].iloc[0] == pytest.approx(np.abs(explanation.matrix).max())
    assert explanation.top_share(5) == pytest.approx(top["contribution"].sum() / explanation.score)
    frame = explanation.frame()
    assert len(frame) == explanation.matrix.size and frame["contribution"].sum() == pytest.approx(explanation.total)


def test_cls_pooling_and_a_dense_head_have_no_exact_split(tiny_bert, monkeypatch):
    with pytest.raises(NoExactSplit, match="first token's vector"):
        explain_pair(tiny_bert, A, B, pooling="cls")
    monkeypatch.setattr(tiny_bert, "head", torch.nn.Linear(32, 4, bias=False))
    with pytest.raises(NoExactSplit, match="Dense layer"):
        explain_pair(tiny_bert, A, B, pooling="default")
    assert explain_pair(tiny_bert, A, B, pooling="default", layer=1).layer == 1  # the Dense head is on the last


@pytest.mark.parametrize("a, b", [(A, A), ("", B), ("Hi", "Yo"), ("bank " * 600, B)])
def test_identical_empty_one_token_and_over_long_texts(minilm, a, b):
    explanation = explain_pair(minilm, a, b)
    assert explanation.total == pytest.approx(encoder_cosine(minilm, a, b), abs=1e-5)
    if a == b:
        assert explanation.score == pytest.approx(1.0, abs=1e-6)
    assert explanation.a.truncated == (len(a) > 1000)


def test_a_vector_of_zeros_is_a_clear_error(minilm, monkeypatch):
    import core.analysis.explanation as module

    real = module.encode_tokens

    def zeroed(model, texts, **options):
        states = real(model, texts, **options)
        states[1].states[:] = 0
        return states

    monkeypatch.setattr(module, "encode_tokens", zeroed)
    with pytest.raises(ValueError, match="Text B's vector is all zeros"):
        explain_pair(minilm, A, B)
