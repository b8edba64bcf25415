"""Why two texts are similar, token by token.

Exact split (mean, mean_sqrt_len and max pooling): with mean pooling a sentence vector is the mean of its token
vectors, so the dot product of two sentence vectors is the sum over token pairs of a_i · b_j / (n_a n_b); divided
by both vectors' lengths it is the cosine. The token × token matrix therefore sums to the score exactly.
mean_sqrt_len only rescales the vector, which the cosine ignores. With max pooling each dimension comes from one
token of A and one of B, so u_d v_d / (|u| |v|) belongs to exactly that pair. CLS pooling and a Dense head after
pooling have no such split: integrated gradients (core.analysis.attribution) answer for those.

The same score also splits into what every text shares at this layer (the layer's mean direction μ, the reason
raw and untrained models find everything similar) and what these two texts share beyond it: with u = μ + u',
v = μ + v', the specific part is u' · v' / (|u| |v|) and the shared part is the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.data.stsb import stsb_sentences
from core.encoding.encoder import TokenStates, encode, encode_tokens, pooler_for
from core.models.loading import LoadedModel
from core.models.pooling import DEFAULT, PoolingMode, mode_named
from core.settings import Pooling, layer_used


class NoExactSplit(ValueError):
    """The configuration's score has no exact token split; the message says why and what to use instead."""


@dataclass(frozen=True)
class Side:
    """One text as the model saw it: its tokens, their character spans, which are special, and each token's total
    contribution to the score (a row or column sum of the matrix). Its first `prompt_tokens` are the prompt's,
    counted by pooling or (`prompt_pooled` False) left out."""

    text: str
    tokens: list[str]
    spans: list[tuple[int, int]]
    special: list[bool]
    totals: np.ndarray
    truncated: bool
    prompt_tokens: int = 0
    prompt_pooled: bool = True


@dataclass(frozen=True)
class PairExplanation:
    a: Side
    b: Side
    matrix: np.ndarray  # (tokens of a, tokens of b); sums to `score`
    score: float  # cosine of the two pooled vectors
    shared: float  # the part of the score along the layer's mean direction
    specific: float  # the part these two texts share beyond it; shared + specific = score
    pooling: str
    layer: int

    @property
    def total(self) -> float:
        return float(self.matrix.sum())

    def top_pairs(self, count: int = 5) -> pd.DataFrame:
        """The strongest token pairs by |contribution|, with their share of the score."""
        flat = np.argsort(-np.abs(self.matrix), axis=None, kind="stable")[:count]
        rows, cols = np.unravel_index(flat, self.matrix.shape)
        values = self.matrix[rows, cols]
        return pd.DataFrame({"token of A": [self.a.tokens[i] for i in rows],
                             "token of B": [self.b.tokens[j] for j in cols], "contribution": values,
                             "share of the score": values / self.score if self.score else np.nan})

    def top_share(self, count: int = 5) -> float:
        return float(self.top_pairs(count)["contribution"].sum() / self.score) if self.score else float("nan")

    def frame(self) -> pd.DataFrame:
        """The matrix as a long table, for download: one row per token pair."""
        rows, cols = np.indices(self.matrix.shape)
        return pd.DataFrame({"position in A": rows.ravel(), "token of A": np.asarray(self.a.tokens)[rows.ravel()],
                             "position in B": cols.ravel(), "token of B": np.asarray(self.b.tokens)[cols.ravel()],
                             "contribution": self.matrix.ravel()})


def exact_mode(model: LoadedModel, pooling: Pooling, layer: int) -> PoolingMode:
    """The pooling mode whose split is exact here (the table's `split`), or NoExactSplit with the reason."""
    names = pooler_for(model, pooling)[0]
    if len(names) > 1:
        raise NoExactSplit(f"{model.model_id} joins several poolings ({' + '.join(names)}) into one vector, which "
                           "this split does not cover; integrated gradients explain it instead.")
    mode = mode_named(names[0])
    if mode.split is None:
        raise NoExactSplit(f"{mode.name} pooling ({mode.help}) gives the score no split over token pairs; "
                           "integrated gradients explain it instead.")
    if pooling == DEFAULT and model.head is not None and layer == model.num_layers:
        raise NoExactSplit(f"{model.model_id} applies a Dense layer after pooling, which mixes the dimensions, so the "
                           "score has no exact split over token pairs; integrated gradients explain it instead.")
    return mode


def _pair_matrix(a: np.ndarray, b: np.ndarray, mode: PoolingMode) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The unnormalised token × token split of u · v, and the pooled vectors u and v (float64)."""
    if mode.split == "max":
        u, v = a.max(axis=0), b.max(axis=0)
        products = np.zeros((len(a), len(b)))
        np.add.at(products, (a.argmax(axis=0), b.argmax(axis=0)), u * v)
        return products, u, v
    scale_a, scale_b = (len(a), len(b)) if mode.split == "mean" else (np.sqrt(len(a)), np.sqrt(len(b)))
    return (a @ b.T) / (scale_a * scale_b), a.sum(axis=0) / scale_a, b.sum(axis=0) / scale_b


def _pooled_positions(model: LoadedModel, states: TokenStates) -> np.ndarray:
    """The token positions pooling counts: all of them, or all after the prompt where the model leaves it out."""
    start = 0 if model.pipeline.include_prompt else states.prompt_tokens
    return np.arange(start, len(states.tokens))


def _side(model: LoadedModel, states: TokenStates, totals: np.ndarray) -> Side:
    return Side(states.text, states.tokens, list(states.offsets), states.special, totals,
                states.truncated, states.prompt_tokens, model.pipeline.include_prompt)


def layer_mean(model: LoadedModel, texts: Sequence[str], *, pooling: str, layer: int,
               max_length: int | None = None) -> np.ndarray:
    """The layer's mean direction: the mean pooled vector of `texts` (a reference sample) at `layer`."""
    return encode(model, texts, pooling=pooling, layer=layer, max_length=max_length).vectors.astype(np.float64) \
        .mean(axis=0)


def explain_pair(model: LoadedModel, a: str, b: str, *, pooling: Pooling = DEFAULT, layer: int | None = None,
                 max_length: int | None = None, prompt: str = "", reference: Sequence[str] = ()) -> PairExplanation:
    """The exact token × token split of the cosine of `a` and `b` (each after `prompt`) at `layer` (None: the last),
    and its split into the layer's shared direction (the mean over `reference` texts) and the rest. Prompt tokens
    that pooling leaves out contribute nothing. Raises NoExactSplit for a configuration without a split, and
    ValueError when a text's vector is all zeros (no cosine)."""
    layer = layer_used(layer, model.num_layers)
    mode = exact_mode(model, pooling, layer)
    first, second = encode_tokens(model, [a, b], max_length=max_length, prompt=prompt)
    keep_a, keep_b = _pooled_positions(model, first), _pooled_positions(model, second)
    tokens_a = first.states[layer][keep_a].astype(np.float64)
    tokens_b = second.states[layer][keep_b].astype(np.float64)
    kept, u, v = _pair_matrix(tokens_a, tokens_b, mode)
    norms = float(np.linalg.norm(u) * np.linalg.norm(v))
    if norms == 0:
        empty = "A" if not np.linalg.norm(u) else "B"
        raise ValueError(f"Text {empty}'s vector is all zeros at layer {layer}, so it has no direction and the "
                         "cosine is undefined; choose another layer or text.")
    matrix = np.zeros((len(first.tokens), len(second.tokens)))
    matrix[np.ix_(keep_a, keep_b)] = kept / norms
    score = float(u @ v / norms)
    mean = layer_mean(model, reference, pooling=mode.name, layer=layer, max_length=max_length) if reference else \
        np.zeros_like(u)
    specific = float((u - mean) @ (v - mean) / norms)
    return PairExplanation(_side(model, first, matrix.sum(axis=1)), _side(model, second, matrix.sum(axis=0)), matrix,
                           score, score - specific, specific, mode.name, layer)


def reference_texts(count: int = 200) -> list[str]:
    """The texts whose mean vector stands for a layer's shared direction: the first STS-B dev sentences (news,
    captions and forums, so no one topic dominates)."""
    return stsb_sentences("dev")[:count]
