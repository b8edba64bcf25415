import numpy as np
import pytest
import torch
from scipy.stats import spearmanr
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.layers import (
    EXAMPLE_SENTENCES,
    Word,
    baseline_band,
    curves_frame,
    default_word,
    find_word,
    layer_agreement,
    pair_cosines,
    sentence_pairs,
    sentence_vectors_by_layer,
    token_alignment,
    word_at,
    word_vectors,
    words,
)
from core.encoding.encoder import TokenStates, encode, encode_tokens


def fake_states(text: str, tokens: list[str], states: np.ndarray) -> TokenStates:
    """A [CLS] … [SEP] text whose middle tokens are one word each; states (layers + 1, tokens, dims)."""
    inner = len(tokens) - 2
    return TokenStates(text=text, tokens=tokens, ids=list(range(len(tokens))),
                       offsets=[(0, 0)] + [(i, i + 1) for i in range(inner)] + [(0, 0)],
                       word_ids=[None, *range(inner), None], special=[True] + [False] * inner + [True],
                       states=states.astype(np.float32), truncated=False)


def cos(a, b) -> float:
    return float(np.dot(a, b) / np.linalg.norm(a) / np.linalg.norm(b))


def test_identical_sentences_give_cosine_one_at_every_layer(minilm):
    text = "We had a picnic on the grassy bank of the river."
    states = encode_tokens(minilm, [text, text])
    vectors = [word_vectors(s, find_word(s, "bank")) for s in states]
    token = pair_cosines(vectors, 7)
    assert token.shape == (1, minilm.num_layers + 1)
    np.testing.assert_allclose(token, 1.0, atol=1e-6)
    by_layer = sentence_vectors_by_layer(minilm, [text, text], pooling="mean")
    np.testing.assert_allclose(pair_cosines(list(by_layer.transpose(1, 0, 2)), 7), 1.0, atol=1e-6)


def test_bank_in_three_senses_starts_near_one_and_separates(minilm):
    states = encode_tokens(minilm, EXAMPLE_SENTENCES)
    assert default_word(states) == "bank"
    token = pair_cosines([word_vectors(s, find_word(s, "bank")) for s in states], 7)
    assert np.all(token[:, 0] > 0.9) and np.all(token[:, 0] < 0.999)  # positions differ even at layer 0
    assert np.all(token[:, 3] < token[:, 0] - 0.1)  # the senses separate in the middle layers
    band = baseline_band(states)
    assert np.all(token[:, 3] > band.mean[3] + band.std[3])  # still well above random token pairs


def test_a_split_word_is_the_mean_of_its_pieces(minilm):
    (states,) = encode_tokens(minilm, ["Tokenization of embeddings"])
    word = word_at(states, 5)  # "##bed"
    assert word.text == "embeddings"
    assert [states.tokens[p] for p in word.pieces] == ["em", "##bed", "##ding", "##s"]
    np.testing.assert_allclose(word_vectors(states, word), states.states[:, 4:8].mean(axis=1), rtol=1e-6)
    assert word_at(states, 0) == Word("[CLS]", (0,))


def test_words_skip_special_tokens_and_default_word_ignores_case_and_punctuation(minilm):
    states = encode_tokens(minilm, ["Hello, Bank!", "the bank, again", "BANK, yes"])
    assert [w.text for w in words(states[0])] == ["Hello", ",", "Bank", "!"]
    assert default_word(states) == "Bank"  # "," is shared too, but it is not a word with letters
    assert find_word(states[2], "bank") == Word("BANK", (1,))
    assert default_word(encode_tokens(minilm, ["a cat", "one dog"])) is None
    # no word in all three: the one in most texts, so the text without it can be named
    assert default_word(encode_tokens(minilm, ["Nothing here.", "A bank loan.", "Bank on it."])) == "bank"
    assert default_word([]) is None


def test_the_shared_word_is_a_content_word_before_a_stop_word_that_more_texts_share(minilm):
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from core.lessons.lessons import BANK, IDIOM

    assert {"the", "he"} <= ENGLISH_STOP_WORDS and "bank" not in ENGLISH_STOP_WORDS
    assert default_word(encode_tokens(minilm, BANK)) == "bank"  # "the" is in all three, "bank" too
    assert default_word(encode_tokens(minilm, IDIOM)) == "bullet"  # "he" is in all three, "bullet" in two
    assert default_word(encode_tokens(minilm, ["He ran.", "He sat."])) == "He"  # no content word is shared


def test_baseline_band_uses_that_layers_tokens_only():
    # Two texts; non-special tokens a1, a2 and b1; pairs from different texts: (a1, b1), (a2, b1).
    layer0 = {"a1": [1, 0], "a2": [0, 1], "b1": [1, 1]}
    layer1 = {"a1": [1, 0], "a2": [-1, 0], "b1": [1, 0]}
    cls_sep = [5, 5]
    a = fake_states("xy", ["[CLS]", "x", "y", "[SEP]"], np.array([[cls_sep, layer0["a1"], layer0["a2"], cls_sep],
                                                                   [cls_sep, layer1["a1"], layer1["a2"], cls_sep]]))
    b = fake_states("z", ["[CLS]", "z", "[SEP]"], np.array([[cls_sep, layer0["b1"], cls_sep],
                                                           [cls_sep, layer1["b1"], cls_sep]]))
    band = baseline_band([a, b])
    assert band.pairs == 2
    at0 = [cos(layer0["a1"], layer0["b1"]), cos(layer0["a2"], layer0["b1"])]  # both 1/sqrt(2)
    at1 = [cos(layer1["a1"], layer1["b1"]), cos(layer1["a2"], layer1["b1"])]  # 1 and -1
    np.testing.assert_allclose(band.mean, [np.mean(at0), np.mean(at1)], atol=1e-6)
    np.testing.assert_allclose(band.std, [np.std(at0), np.std(at1)], atol=1e-6)
    np.testing.assert_allclose(band.mean, [2 ** -0.5, 0.0], atol=1e-6)
    np.testing.assert_allclose(band.std, [0.0, 1.0], atol=1e-6)


def test_baseline_band_of_one_text_pairs_its_own_tokens_and_samples_are_seeded(minilm):
    one = fake_states("xyz", ["[CLS]", "x", "y", "z", "[SEP]"], np.eye(5, 3)[None, [0, 1, 2, 0, 1]].repeat(2, 0))
    assert baseline_band([one]).pairs == 3  # x-y, x-z, y-z
    states = encode_tokens(minilm, EXAMPLE_SENTENCES)
    first, again = baseline_band(states, samples=50, seed=3), baseline_band(states, samples=50, seed=3)
    assert first.pairs == 50
    np.testing.assert_array_equal(first.mean, again.mean)
    assert baseline_band([fake_states("", ["[CLS]", "[SEP]"], np.zeros((2, 2, 3)))]) is None


def test_missing_token_gives_nan_only_for_its_pairs():
    v = np.array([[1.0, 0.0], [1.0, 1.0]])
    token = pair_cosines([v, None, v], 2)
    assert sentence_pairs(3) == [(0, 1), (0, 2), (1, 2)]
    assert np.isnan(token[0]).all() and np.isnan(token[2]).all()
    np.testing.assert_allclose(token[1], [1.0, 1.0])
    assert pair_cosines([None, None], 2).shape == (1, 2) and pair_cosines([v], 2).shape == (0, 2)


def test_sentence_vectors_by_layer_match_the_encoder_at_each_layer(minilm):
    texts = ["A man is playing a guitar.", "Someone plays an instrument.", "The stock market fell."]
    by_layer = sentence_vectors_by_layer(minilm, texts, pooling="cls")
    assert by_layer.shape == (7, 3, 384)
    np.testing.assert_allclose(by_layer[2], encode(minilm, texts, pooling="cls", layer=2).vectors)


def test_a_dense_head_that_changes_the_width_pools_every_layer_alike(tiny_bert, monkeypatch):
    monkeypatch.setattr(tiny_bert, "head", torch.nn.Linear(32, 4, bias=False))
    texts = ["A man is playing a guitar.", "Someone plays an instrument.", "The stock market fell."]
    by_layer = sentence_vectors_by_layer(tiny_bert, texts, pooling="default")
    assert by_layer.shape == (tiny_bert.num_layers + 1, 3, 32)
    np.testing.assert_array_equal(by_layer[-1], encode(tiny_bert, texts, pooling=tiny_bert.default_pooling).vectors)
    assert layer_agreement(by_layer)[-1] == pytest.approx(1.0)


def test_token_alignment_is_the_cosine_matrix_of_that_layer(minilm):
    a, b = encode_tokens(minilm, ["the river bank", "a bank account"])
    matrix = token_alignment(a, b, 3)
    assert matrix.shape == (len(a.tokens), len(b.tokens))
    np.testing.assert_allclose(matrix, cosine_similarity(a.states[3], b.states[3]), atol=1e-5)
    np.testing.assert_allclose(np.diag(token_alignment(a, a, 4)), 1.0, atol=1e-5)


def test_layer_agreement_is_spearman_against_the_last_layer():
    rng = np.random.default_rng(0)
    last = rng.normal(size=(5, 4))
    by_layer = np.stack([rng.normal(size=(5, 4)), last * 3.0, last])
    rho = layer_agreement(by_layer)
    upper = np.triu_indices(5, k=1)
    expected = spearmanr(cosine_similarity(by_layer[0])[upper], cosine_similarity(last)[upper]).statistic
    assert rho[0] == pytest.approx(expected)
    assert rho[1] == pytest.approx(1.0) and rho[2] == pytest.approx(1.0)  # scale does not change cosines
    with pytest.raises(ValueError, match="at least 3 texts"):
        layer_agreement(by_layer[:, :2])


def test_layer_agreement_of_the_last_layer_with_itself_is_one(minilm):
    texts = ["A man is playing a guitar.", "Someone plays an instrument.", "The stock market fell.",
             "Shares dropped sharply today."]
    rho = layer_agreement(sentence_vectors_by_layer(minilm, texts, pooling="mean"))
    assert rho.shape == (7,)
    assert rho[-1] == pytest.approx(1.0)


def test_curves_frame_has_one_row_per_layer_and_pair():
    token = np.array([[1.0, 0.5], [np.nan, np.nan]])
    sentence = np.array([[0.9, 0.4], [0.8, 0.3]])
    frame = curves_frame(pair_labels=["S1 · S2", "S1 · S3"], token=token, sentence=sentence, band=None)
    assert list(frame.columns) == ["layer", "pair", "token_cosine", "sentence_cosine", "baseline_mean", "baseline_std"]
    assert len(frame) == 4
    assert list(frame["layer"]) == [0, 1, 0, 1] and list(frame["pair"]) == ["S1 · S2"] * 2 + ["S1 · S3"] * 2
    assert frame.loc[1, "token_cosine"] == 0.5 and np.isnan(frame.loc[2, "token_cosine"])
    assert frame.loc[3, "sentence_cosine"] == pytest.approx(0.3)
    assert frame["baseline_mean"].isna().all()
