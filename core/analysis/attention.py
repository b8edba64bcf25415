"""Attention weights of one text. SDPA returns none, so the model runs eager attention for this call only."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from core.encoding.encoder import tokenize
from core.models.loading import LoadedModel

_EAGER_LOCK = threading.Lock()  # the model object is shared by every session of the server


class AttentionUnavailable(Exception):
    """A model that cannot return attention weights; the message says so in one sentence."""


@dataclass
class AttentionMaps:
    """weights[l, h, i, j]: how much token i attends to token j in head h of transformer layer l + 1."""

    tokens: list[str]
    special: list[bool]
    weights: np.ndarray  # (layers, heads, tokens, tokens); every row sums to 1
    truncated: bool

    @property
    def num_layers(self) -> int:
        return self.weights.shape[0]

    @property
    def num_heads(self) -> int:
        return self.weights.shape[1]

    def head(self, layer: int, head: int) -> np.ndarray:
        """Layer counts from 1 (the first transformer layer), head from 0."""
        return self.weights[layer - 1, head]

    def mean_over_heads(self, layer: int) -> np.ndarray:
        return self.weights[layer - 1].mean(axis=0)


@contextmanager
def eager_attention(network: Any) -> Iterator[None]:
    """Run `network` with eager attention inside the block and restore its implementation after."""
    with _EAGER_LOCK:
        previous = network.config._attn_implementation
        network.set_attn_implementation("eager")
        try:
            yield
        finally:
            network.set_attn_implementation(previous)


def attention_maps(model: LoadedModel, text: str, *, max_length: int | None = None) -> AttentionMaps:
    """Every layer's and head's attention weights for `text`, cut at the token limit (memoised per text)."""
    if model.static:
        raise AttentionUnavailable(f"{model.model_id} is a static model: it looks up each token's vector alone, "
                                   "so no token attends to another.")
    limit = model.token_limit(max_length)
    (row,), (truncated,) = tokenize(model, [text], limit)
    key = ("attention", limit, text)
    hit = model.memo.get(key)
    if hit is None:
        weights = _weights(model, row)
        model.memo.put(key, weights, truncated)
    else:
        weights, truncated = hit
    return AttentionMaps(tokens=model.tokenizer.convert_ids_to_tokens(row["input_ids"]),
                         special=[bool(s) for s in row["special_tokens_mask"]], weights=weights, truncated=truncated)


def _weights(model: LoadedModel, row: dict) -> np.ndarray:
    """One tokenized text's attention weights, (layers, heads, tokens, tokens)."""
    inputs = {k: torch.tensor([row[k]], device=model.device)
              for k in ("input_ids", "attention_mask", "token_type_ids") if k in row}
    with eager_attention(model.network), torch.inference_mode():
        out = model.network(**inputs, output_attentions=True)
    if not out.attentions or out.attentions[0] is None:
        raise AttentionUnavailable(f"{model.model_id} does not return attention weights.")
    return torch.stack(out.attentions)[:, 0].float().cpu().numpy()


def special_share(maps: AttentionMaps) -> np.ndarray:
    """Per layer, the share of attention that goes to special tokens ([CLS], [SEP]), averaged over heads and
    attending tokens: (layers,), each in [0, 1]."""
    to_special = maps.weights[..., np.array(maps.special, dtype=bool)].sum(axis=-1)  # (layers, heads, tokens)
    return to_special.mean(axis=(1, 2))
