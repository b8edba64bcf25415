"""Layer by layer: how a word's vector and a sentence's vector drift from the embedding layer to the last."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.similarity import paired_cosine, similarity_matrix
from core.encoding.encoder import Progress, TokenStates, after_pooling, pooled_layers
from core.models.loading import LoadedModel
from core.settings import Pooling

EXAMPLE_SENTENCES = (
    "We had a picnic on the grassy bank of the river.",
    "She deposited her salary at the bank this morning.",
    "You can always bank on your sister to help.",
)
MAX_SENTENCES = 8


@dataclass(frozen=True)
class Word:
    """A word as the tokenizer's pre-tokenizer sees it, and the positions of its pieces."""

    text: str
    pieces: tuple[int, ...]


@dataclass(frozen=True)
class Band:
    """Mean and standard deviation per layer of the cosine between random token pairs."""

    mean: np.ndarray
    std: np.ndarray
    pairs: int


def words(states: TokenStates) -> list[Word]:
    """The text's words in order; special tokens and the prompt's tokens are not words."""
    pieces: dict[int, list[int]] = {}
    for position, word_id in enumerate(states.word_ids):
        if word_id is not None and not states.special[position] and position >= states.prompt_tokens:
            pieces.setdefault(word_id, []).append(position)
    return [Word(states.text[states.offsets[p[0]][0]:states.offsets[p[-1]][1]], tuple(p)) for p in pieces.values()]


def word_at(states: TokenStates, token: int) -> Word:
    """The word that holds token position `token` (a special token stands for itself)."""
    for word in words(states):
        if token in word.pieces:
            return word
    return Word(states.tokens[token], (token,))


def find_word(states: TokenStates, text: str) -> Word | None:
    """The first occurrence of `text` as a whole word, ignoring case."""
    wanted = text.casefold()
    return next((word for word in words(states) if word.text.casefold() == wanted), None)


def default_word(all_states: Sequence[TokenStates]) -> str | None:
    """The word (with a letter or digit) shared by the most texts, at least two, preferring a content word to a
    stop word (scikit-learn's English list: "the", "a", "he" …); on a tie the one seen first, reading the texts in
    order. So "bank" wins over "the" in three senses of "bank"."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    seen: dict[str, tuple[str, set[int]]] = {}
    for index, states in enumerate(all_states):
        for word in words(states):
            key = word.text.casefold()
            if any(ch.isalnum() for ch in key):
                seen.setdefault(key, (word.text, set()))[1].add(index)
    shared = [(key, text, texts) for key, (text, texts) in seen.items() if len(texts) >= 2]
    best = max(shared, key=lambda item: (item[0] not in ENGLISH_STOP_WORDS, len(item[2])), default=None)
    return best[1] if best is not None else None  # max keeps the first of equals


def word_vectors(states: TokenStates, word: Word) -> np.ndarray:
    """The word's vector at every layer, (layers + 1, dims): the mean of its pieces."""
    return states.states[:, list(word.pieces)].mean(axis=1)


def sentence_pairs(count: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(count), 2))


def pair_cosines(vectors: Sequence[np.ndarray | None], layers: int) -> np.ndarray:
    """Cosine per layer for every pair (i < j) of per-layer vectors (layers, dims): (pairs, layers).

    A missing vector (None: the text lacks the token) gives NaN for its pairs."""
    rows = [paired_cosine(a, b) if (a := vectors[i]) is not None and (b := vectors[j]) is not None
            else np.full(layers, np.nan, np.float32) for i, j in sentence_pairs(len(vectors))]
    return np.stack(rows) if rows else np.zeros((0, layers), np.float32)


def _random_token_pairs(all_states: Sequence[TokenStates], samples: int,
                        seed: int) -> list[tuple[int, int, int, int]]:
    """(text, token, text, token) pairs of non-special tokens from different texts (within the one text if
    there is only one); every such pair when there are at most `samples`, else `samples` drawn with `seed`."""
    tokens = [(t, p) for t, s in enumerate(all_states) for p, special in enumerate(s.special) if not special]
    apart = len(all_states) > 1

    def allowed(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] != b[0] if apart else a[1] != b[1]

    sizes = np.bincount([t for t, _ in tokens], minlength=len(all_states))
    total = (int(sizes.sum()) ** 2 - int((sizes ** 2).sum())) // 2 if apart else len(tokens) * (len(tokens) - 1) // 2
    if total <= samples:
        return [(*a, *b) for a, b in itertools.combinations(tokens, 2) if allowed(a, b)]
    rng = np.random.default_rng(seed)
    chosen: list[tuple[int, int, int, int]] = []
    while len(chosen) < samples:
        i, j = rng.integers(len(tokens), size=2)
        if allowed(tokens[i], tokens[j]):
            chosen.append((*tokens[i], *tokens[j]))
    return chosen


def baseline_band(all_states: Sequence[TokenStates], *, samples: int = 500, seed: int = 0) -> Band | None:
    """Per layer, the mean ± std of the cosine between random token pairs of these texts at that same layer.

    The same pairs are used at every layer, so the band moves only with the layer's own geometry."""
    pairs = _random_token_pairs(all_states, samples, seed)
    if not pairs:
        return None
    states = np.concatenate([s.states for s in all_states], axis=1)  # (layers + 1, every text's tokens, dims)
    starts = np.cumsum([0, *(s.states.shape[1] for s in all_states)])
    at = np.array([(starts[t] + p, starts[u] + q) for t, p, u, q in pairs])
    cos = paired_cosine(states[:, at[:, 0]], states[:, at[:, 1]]).T  # (pairs, layers + 1)
    return Band(cos.mean(axis=0), cos.std(axis=0), len(pairs))


def sentence_vectors_by_layer(model: LoadedModel, texts: Sequence[str], *, pooling: Pooling,
                              max_length: int | None = None, prompt: str = "", layers: Sequence[int] | None = None,
                              progress: Progress | None = None) -> np.ndarray:
    """Pooled vectors of every text at every layer (or at `layers`), (layers, texts, dims), from one forward pass.

    Every layer is treated alike: "default" means the model's pooling and Normalize module, without the modules
    that the encoder applies at the last layer only (a Dense head may change the width). A dense model's: each kind
    says what its vector of a layer is (core.kinds, `vectors_by_layer`)."""
    pooled = pooled_layers(model, texts, pooling=pooling, layers=layers, max_length=max_length, prompt=prompt,
                           progress=progress)
    return np.stack([after_pooling(model, vectors, pooling=pooling, last_layer=False)
                     for vectors in pooled.vectors])


def token_alignment(a: TokenStates, b: TokenStates, layer: int) -> np.ndarray:
    """Cosine between every token of `a` and every token of `b` at `layer`, (tokens of a, tokens of b)."""
    return cosine_similarity(a.states[layer], b.states[layer])


def layer_agreement(by_layer: np.ndarray) -> np.ndarray:
    """Spearman correlation of each layer's off-diagonal cosine similarities with the last layer's.

    `by_layer` is (layers + 1, texts, dims); needs 3 texts or more (NaN where a layer's similarities are constant)."""
    count = by_layer.shape[1]
    if count < 3:
        raise ValueError("Layer agreement needs at least 3 texts (2 give a single similarity to rank).")
    upper = np.triu_indices(count, k=1)
    last = similarity_matrix(by_layer[-1])[upper]
    return np.array([spearmanr(similarity_matrix(vectors)[upper], last).statistic for vectors in by_layer])


def curves_frame(*, pair_labels: Sequence[str], token: np.ndarray, sentence: np.ndarray,
                 band: Band | None) -> pd.DataFrame:
    """The layer curves as one long table, one row per (pair, layer); NaN (an empty CSV cell) where a pair
    has no token cosine or there is no baseline."""
    pairs, layers = sentence.shape
    nothing = np.full(layers, np.nan)
    return pd.DataFrame({
        "layer": np.tile(np.arange(layers), pairs),
        "pair": np.repeat(list(pair_labels), layers),
        "token_cosine": token.reshape(-1).astype(float),
        "sentence_cosine": sentence.reshape(-1).astype(float),
        "baseline_mean": np.tile(band.mean if band else nothing, pairs).astype(float),
        "baseline_std": np.tile(band.std if band else nothing, pairs).astype(float),
    })


@dataclass(frozen=True)
class Drift:
    """Per pair of texts (i < j) and per layer: the cosine of the chosen words (NaN where a text has none) and
    of the pooled sentences, with the random-token band; `by_layer` holds the pooled vectors (layers, texts, dims)."""

    pairs: list[tuple[int, int]]
    token: np.ndarray
    sentence: np.ndarray
    band: Band | None
    by_layer: np.ndarray

    @property
    def labels(self) -> list[str]:
        return [f"S{i + 1} · S{j + 1}" for i, j in self.pairs]

    def frame(self) -> pd.DataFrame:
        return curves_frame(pair_labels=self.labels, token=self.token, sentence=self.sentence, band=self.band)


def drift_texts(states: Sequence[TokenStates]) -> tuple[list[str], str]:
    """The texts of `states` without their prompt, and the prompt: what their sentence vectors are encoded from."""
    return [ts.text[len(ts.prompt):] for ts in states], states[0].prompt if states else ""


def layer_drift(model: LoadedModel, states: Sequence[TokenStates], chosen: Sequence[Word | None],
                by_layer: np.ndarray | None) -> Drift:
    """How the chosen word of each text, and each text's sentence vector (`by_layer`: (layers + 1, texts, dims), as
    the model's kind gives them for `drift_texts(states)`), drift apart or together from layer 0 to the last; where
    the kind has no sentence vector at its layers (None), the sentences' cosines are NaN (and `by_layer` empty)."""
    layers = model.num_layers + 1
    pairs = sentence_pairs(len(states))
    if by_layer is None:
        by_layer = np.zeros((layers, len(states), 0), np.float32)
        sentence = np.full((len(pairs), layers), np.nan, np.float32)
    else:
        sentence = pair_cosines(list(by_layer.transpose(1, 0, 2)), layers)
    return Drift(pairs=pairs,
                 token=pair_cosines([word_vectors(ts, w) if w else None for ts, w in zip(states, chosen)], layers),
                 sentence=sentence, band=baseline_band(states), by_layer=by_layer)
