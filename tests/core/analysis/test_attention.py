import threading

import numpy as np
import pytest
import torch

from core.analysis.attention import AttentionMaps, attention_maps, eager_attention, special_share
from core.encoding.encoder import encode_tokens

TEXT = "We had a picnic on the grassy bank of the river."


def test_attention_rows_sum_to_one_for_every_layer_and_head(minilm):
    maps = attention_maps(minilm, TEXT)
    assert maps.tokens[0] == "[CLS]" and maps.tokens[-1] == "[SEP]"
    assert maps.special == [True] + [False] * (len(maps.tokens) - 2) + [True]
    assert maps.weights.shape == (6, 12, len(maps.tokens), len(maps.tokens))
    np.testing.assert_allclose(maps.weights.sum(axis=-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(maps.mean_over_heads(2), maps.weights[1].mean(axis=0))
    np.testing.assert_array_equal(maps.head(6, 11), maps.weights[5, 11])
    assert not maps.truncated


def test_the_model_goes_back_to_sdpa_after_the_eager_call(minilm):
    attention_maps(minilm, "a different text, so the memo does not answer")
    assert minilm.network.config._attn_implementation == "sdpa"


def test_eager_and_sdpa_hidden_states_agree(minilm):
    (sdpa,) = encode_tokens(minilm, [TEXT])
    inputs = minilm.tokenizer([TEXT], return_tensors="pt")
    with eager_attention(minilm.network), torch.inference_mode():
        assert minilm.network.config._attn_implementation == "eager"
        eager = minilm.network(**inputs, output_hidden_states=True).hidden_states
    np.testing.assert_allclose(torch.stack(eager)[:, 0].numpy(), sdpa.states, atol=1e-5)


def test_special_share_is_the_mass_on_special_columns():
    weights = np.zeros((2, 2, 3, 3))
    weights[0, :, :, 0] = 1.0  # layer 1: every token attends only to [CLS]
    weights[1, 0] = np.full((3, 3), 1 / 3)  # layer 2, head 1: uniform -> 2/3 on [CLS] and [SEP]
    weights[1, 1, :, 1] = 1.0  # layer 2, head 2: all on the word
    maps = AttentionMaps(tokens=["[CLS]", "word", "[SEP]"], special=[True, False, True], weights=weights,
                         truncated=False)
    np.testing.assert_allclose(special_share(maps), [1.0, (2 / 3 + 0) / 2])


def test_a_long_text_is_cut_and_flagged(tiny_bert):
    maps = attention_maps(tiny_bert, "word " * 50, max_length=16)
    assert maps.truncated and len(maps.tokens) == 16
    assert maps.weights.shape == (2, 2, 16, 16)
    np.testing.assert_allclose(maps.weights.sum(axis=-1), 1.0, atol=1e-5)


def test_concurrent_calls_share_the_model_safely(minilm):
    results: dict[int, np.ndarray] = {}

    def run(i: int) -> None:
        results[i] = attention_maps(minilm, f"thread {i} looks at attention").weights

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    assert minilm.network.config._attn_implementation == "sdpa"
    assert all(np.allclose(w.sum(axis=-1), 1.0, atol=1e-5) for w in results.values())


@pytest.mark.parametrize("text", ["", "bank"])
def test_short_texts_have_attention_too(minilm, text):
    maps = attention_maps(minilm, text)
    assert maps.weights.shape[-1] == len(maps.tokens) == (2 if not text else 3)
