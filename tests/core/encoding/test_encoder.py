import copy
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from core.data.stsb import stsb_sentences
from core.encoding.encoder import TOKENS_KEPT_UPTO, _padded, encode, encode_tokens, pooled_layers, tokenize
from core.models.packages import packaged_minilm_folder
from tests import stsb_counts


def _count_forwards(model, monkeypatch) -> list[int]:
    forwarded: list[int] = []
    original = model.network.forward

    def counting_forward(*args, **kwargs):
        forwarded.append(kwargs["input_ids"].shape[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(model.network, "forward", counting_forward)
    return forwarded


@pytest.mark.slow
def test_default_pooling_matches_sentence_transformers_on_stsb_dev_sentences_of_every_length(minilm):
    """The 300 longest and 100 shortest dev sentences and 400 others drawn at random, in one call: every batch's
    padding, from one token to the longest. (Every one of the 3,000 took 67 s of a loaded CI run.)"""
    from sentence_transformers import SentenceTransformer

    every = stsb_sentences("dev")
    assert len(every) == stsb_counts.split_sentences("dev")
    by_length = sorted(every, key=len)
    rest = by_length[100:-300]
    drawn = np.random.default_rng(0).choice(len(rest), 400, replace=False)
    sentences = by_length[:100] + [rest[i] for i in drawn] + by_length[-300:]
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode(sentences, batch_size=64)
    ours = encode(minilm, sentences).vectors
    assert ours.dtype == np.float32 and ours.shape == (len(sentences), 384)
    assert np.abs(ours - reference).max() <= 1e-5


def test_vectors_come_back_in_input_order_with_duplicates(minilm):
    texts = ["A cat sits on the mat.", "Stock markets fell sharply today.", "A cat sits on the mat."]
    vectors = encode(minilm, texts).vectors
    np.testing.assert_array_equal(vectors[0], vectors[2])
    alone = encode(minilm, [texts[1]]).vectors[0]
    np.testing.assert_allclose(vectors[1], alone, atol=1e-6)
    assert float(vectors[0] @ vectors[1]) < 0.3


def test_editing_one_text_of_ten_encodes_only_that_one(minilm, monkeypatch):
    texts = [f"Sentence number {i} about the weather." for i in range(10)]
    encode(minilm, texts)
    forwarded = _count_forwards(minilm, monkeypatch)
    texts[4] = "An edited sentence about the sea."
    encode(minilm, texts)
    assert forwarded == [1]
    # every layer in one pass: the nine others' (only their last was kept before), not the edited one's, whose token
    # states its own pass kept ...
    pooled_layers(minilm, texts)
    encode(minilm, texts, layer=2)  # ... so another layer needs no forward at all
    assert forwarded == [1, 9]


def test_layers_zero_to_last_differ_and_the_last_is_the_default(minilm):
    texts = ["The river bank was muddy."]
    per_layer = [encode(minilm, texts, pooling="mean", layer=layer).vectors[0] for layer in range(7)]
    np.testing.assert_array_equal(per_layer[6], encode(minilm, texts, pooling="mean").vectors[0])
    assert all(not np.allclose(per_layer[i], per_layer[i + 1]) for i in range(6))
    with pytest.raises(ValueError, match="layers 0 to 6"):
        encode(minilm, texts, layer=7)


def test_normalize_gives_unit_vectors_and_default_pooling_honours_the_normalize_module(minilm):
    texts = ["short", "a somewhat longer sentence with more words in it"]
    assert np.allclose(np.linalg.norm(encode(minilm, texts).vectors, axis=1), 1.0, atol=1e-6)
    raw = encode(minilm, texts, pooling="mean").vectors
    assert not np.allclose(np.linalg.norm(raw, axis=1), 1.0)
    assert np.allclose(np.linalg.norm(encode(minilm, texts, pooling="mean", normalize=True).vectors, axis=1), 1.0)


def test_hidden_states_cover_layers_zero_to_last_with_tokens_offsets_and_word_ids(minilm):
    [states] = encode_tokens(minilm, ["Tokenization works"])
    assert states.tokens == ["[CLS]", "token", "##ization", "works", "[SEP]"]
    assert states.states.shape == (7, 5, 384)
    assert states.offsets[1:4] == [(0, 5), (5, 12), (13, 18)]
    assert states.word_ids == [None, 0, 0, 1, None]
    assert states.special == [True, False, False, False, True]
    assert not states.truncated


def test_token_states_agree_with_pooled_vectors(minilm):
    [states] = encode_tokens(minilm, ["Layer three of six"])
    pooled = encode(minilm, ["Layer three of six"], pooling="mean", layer=3).vectors[0]
    np.testing.assert_allclose(states.states[3].mean(axis=0), pooled, atol=1e-5)


def test_a_few_texts_just_pooled_give_every_layers_token_states_without_running_the_model_again(minilm, monkeypatch):
    texts = ["A heron waits among the reeds.", "The reeds bend in a cold wind today."]
    pooled = encode(minilm, texts, pooling="mean", layer=3).vectors
    forwarded = _count_forwards(minilm, monkeypatch)
    states = encode_tokens(minilm, texts)
    assert forwarded == []
    for text, state, vector in zip(texts, states, pooled):
        with torch.inference_mode():  # each text alone through the network, no padding: an independent forward
            alone = minilm.network(**minilm.tokenizer([text], return_tensors="pt"), output_hidden_states=True)
        expected = np.stack([layer[0].numpy() for layer in alone.hidden_states])
        np.testing.assert_allclose(state.states, expected, atol=1e-5)
        np.testing.assert_allclose(state.states[3].mean(axis=0), vector, atol=1e-5)
        assert state.tokens == minilm.tokenizer.convert_ids_to_tokens(minilm.tokenizer(text)["input_ids"])


def test_texts_whose_token_states_were_asked_for_are_pooled_from_them_as_sentence_transformers_pools(minilm,
                                                                                                   monkeypatch):
    from sentence_transformers import SentenceTransformer

    texts = ["An ibis walks along the shore.", "Shore birds feed at low tide."]
    encode_tokens(minilm, texts)
    forwarded = _count_forwards(minilm, monkeypatch)
    vectors = encode(minilm, texts).vectors
    assert forwarded == []
    expected = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode(texts)
    np.testing.assert_allclose(vectors, expected, atol=1e-5)


def test_many_texts_pooled_at_once_leave_no_token_states_behind(minilm, monkeypatch):
    texts = [f"Line {i} of a corpus about rivers." for i in range(TOKENS_KEPT_UPTO + 1)]
    encode(minilm, texts)
    forwarded = _count_forwards(minilm, monkeypatch)
    encode_tokens(minilm, texts[:1])
    assert forwarded == [1]


@pytest.mark.parametrize("text", ["", "   ", "😀🎉👍🏽", "Привет, мир", "東京は日本の首都です", "مرحبا بالعالم"])
def test_unusual_texts_embed_to_finite_vectors(minilm, text):
    result = encode(minilm, [text])
    assert result.vectors.shape == (1, 384) and np.isfinite(result.vectors).all()


def test_truncation_is_reported_never_silent(minilm):
    long = "word " * 400
    result = encode(minilm, ["short text", long], max_length=32)
    assert result.truncated == [1]
    assert "longer than 32 tokens" in result.truncation_notice and not result.notices
    [states] = encode_tokens(minilm, [long], max_length=32)
    assert states.truncated and len(states.tokens) == 32


def test_a_failing_accelerator_falls_back_to_cpu_with_a_notice(tiny_bert, monkeypatch):
    original = tiny_bert.network.forward
    calls = {"n": 0}

    def flaky_forward(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("CUDA error: out of memory")
        return original(*args, **kwargs)

    monkeypatch.setattr(tiny_bert.network, "forward", flaky_forward)
    monkeypatch.setattr(tiny_bert, "device", "meta")  # a device every torch build accepts tensors on
    moved: list[str] = []
    monkeypatch.setattr(tiny_bert.network, "to", lambda device: moved.append(device))
    result = encode(tiny_bert, ["fallback please"])
    assert moved == ["cpu"] and tiny_bert.device == "cpu"
    assert "meta device failed (CUDA error: out of memory); the model now runs on the CPU" in result.notices[0]
    assert result.vectors.shape == (1, 32)


def test_empty_input_gives_an_empty_array(minilm):
    assert encode(minilm, []).vectors.shape == (0, 384)


def test_dense_modules_apply_at_the_last_layer_only(tiny_bert, monkeypatch):
    dense = torch.nn.Linear(32, 4, bias=False)
    monkeypatch.setattr(tiny_bert, "head", dense)
    assert encode(tiny_bert, ["x y z"]).vectors.shape == (1, 4)
    assert encode(tiny_bert, ["x y z"], layer=1).vectors.shape == (1, 32)
    assert encode(tiny_bert, ["x y z"], pooling="mean").vectors.shape == (1, 32)


@pytest.mark.parametrize("pooling", ["cls", "mean", "max"])
def test_the_memo_holds_compact_vectors_not_views_into_a_batch_of_hidden_states(tiny_bert, pooling):
    """A view would keep the whole batch's hidden states (layers x batch x tokens x dims) alive per entry."""
    tiny_bert.memo.clear()
    texts = [f"sentence number {i} about memory" for i in range(20)]
    encode(tiny_bert, texts, pooling=pooling, batch_size=8)
    held = [value for key, (value, _) in tiny_bert.memo._items.items() if key[0] == "pooled"]
    assert len(held) == len(texts)
    for value in held:
        owner = value.base if value.base is not None else value
        assert owner.flags.c_contiguous and owner.nbytes <= 8 * value.nbytes


@pytest.mark.parametrize("side", ["right", "left"])
def test_a_batch_is_padded_as_the_tokenizers_own_pad_pads_it(minilm, side):
    tokenizer = copy.deepcopy(minilm.tokenizer)
    tokenizer.padding_side = side
    rows, _ = tokenize(minilm, ["a short one", "", "a much longer text, of many more tokens than the others"], 128)
    features = [{key: row[key] for key in ("input_ids", "attention_mask", "token_type_ids")} for row in rows]
    expected = tokenizer.pad(features, padding=True, return_tensors="pt")
    padded = _padded(SimpleNamespace(tokenizer=tokenizer), rows, [2, 0, 1])
    reordered = {key: value[[2, 0, 1]] for key, value in expected.items()}
    assert padded.keys() == reordered.keys()
    for key, value in reordered.items():
        assert torch.equal(padded[key], value), key


LONG = " ".join(["The quick brown fox jumps over the lazy dog near the river bank."] * 12)  # about 170 tokens


def test_kept_token_states_are_those_of_their_own_token_limit_and_prompt(minilm):
    """A text's token states are kept per limit and prompt: after the whole text, a cut at 32 tokens is the network's
    own at 32 (transformers alone), and after a prompt the plain text keeps no prompt."""
    from transformers import AutoModel, AutoTokenizer

    folder = str(packaged_minilm_folder())
    tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    whole = encode_tokens(minilm, [LONG])[0]
    cut = encode_tokens(minilm, [LONG], max_length=32)[0]
    encoded = tokenizer([LONG], truncation=True, max_length=32, return_tensors="pt")
    with torch.no_grad():
        states = torch.stack(network(**encoded, output_hidden_states=True).hidden_states)[:, 0].numpy()
    assert len(whole.tokens) > 100 and len(cut.tokens) == 32 and cut.truncated
    np.testing.assert_allclose(cut.states, states, atol=1e-4)
    prompted = encode_tokens(minilm, ["A man plays."], prompt="query: ")[0]
    plain = encode_tokens(minilm, ["A man plays."])[0]
    assert prompted.tokens[1:3] == ["query", ":"] and "query" not in plain.tokens


def test_pooled_vectors_after_a_longer_limit_are_sentence_transformers_at_32_tokens(minilm):
    from sentence_transformers import SentenceTransformer

    encode(minilm, [LONG])
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    reference.max_seq_length = 32
    np.testing.assert_allclose(encode(minilm, [LONG], max_length=32).vectors, reference.encode([LONG]), atol=1e-5)
