"""Attribution through the network, for any pooling: integrated gradients (Captum's LayerIntegratedGradients) of
the pair score with respect to one text's token representations at a chosen layer, the other text held fixed.

The baseline is the same text with every non-special token replaced by the padding token. Completeness says how
much to trust the result: the attributions should sum to the score's change from that baseline, and the gap
shrinks as the number of steps grows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from core.encoding.encoder import encode, pooler_for, tokenize
from core.models.loading import LoadedModel
from core.models.pooling import DEFAULT, STModule, pool
from core.settings import Pooling, layer_used

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TokenAttribution:
    """One text's tokens and their attributions; `change` is score(text) − score(baseline), `gap` the sum of the
    attributions minus that change (0 for perfect completeness)."""

    text: str
    tokens: list[str]
    special: list[bool]
    attributions: np.ndarray
    score: float
    baseline_score: float
    gap: float
    truncated: bool

    @property
    def change(self) -> float:
        return self.score - self.baseline_score

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame({"position": range(len(self.tokens)), "token": self.tokens,
                             "attribution": self.attributions, "special": self.special})


@dataclass(frozen=True)
class PairAttribution:
    a: TokenAttribution  # A's tokens, B held fixed
    b: TokenAttribution  # B's tokens, A held fixed
    steps: int
    attribution_layer: int  # 0: the embedding layer's output
    score_layer: int


def block_modules(network: Any) -> list[torch.nn.Module]:
    """The network's transformer blocks in order: the module list as long as its number of layers."""
    count = int(network.config.num_hidden_layers)
    for module in network.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return list(module)
    raise ValueError(f"Cannot find the {count} transformer blocks of {type(network).__name__}.")


def _layer_module(network: Any, layer: int) -> torch.nn.Module:
    """Layer 0 is the embedding block's output; layer l the output of transformer block l."""
    if layer == 0:
        return getattr(network, "embeddings", None) or network.get_input_embeddings()
    return block_modules(network)[layer - 1]


def padding_baseline(input_ids: torch.Tensor, special: Sequence[bool], pad_token_id: int | None) -> torch.Tensor:
    """The baseline of every integrated-gradients explanation here: the same input (one row) with every non-special
    token replaced by the padding token (0 where the tokenizer has none)."""
    pad = pad_token_id if pad_token_id is not None else 0
    return torch.where(torch.tensor([list(special)], device=input_ids.device), input_ids, pad)


def layer_attributions(forward: Callable[[torch.Tensor], torch.Tensor], layer: torch.nn.Module,
                       input_ids: torch.Tensor, baseline: torch.Tensor, *, steps: int,
                       batch: int = 16, convergence: bool = True) -> tuple[np.ndarray, float | None]:
    """Captum's LayerIntegratedGradients of `forward` (input ids -> one score per row) at `layer`, summed over the
    layer's dimensions: one attribution per token of the one input row, `batch` steps a pass; with `convergence`,
    Captum's completeness gap too (the sum minus forward(input) − forward(baseline)), else None (for a caller that
    scores both anyway)."""
    from captum.attr import LayerIntegratedGradients

    explainer = LayerIntegratedGradients(forward, layer)
    found = explainer.attribute(input_ids, baselines=baseline, n_steps=steps, internal_batch_size=min(steps, batch),
                                return_convergence_delta=convergence)
    attributions, gap = found if convergence else (found, None)
    if isinstance(attributions, tuple):  # a block that returns a tuple: its hidden states come first
        attributions = attributions[0]
    return (attributions[0].sum(dim=-1).detach().cpu().numpy().astype(float),
            None if gap is None else float(gap[0]))


def _inputs(model: LoadedModel, text: str, limit: int) -> tuple[dict[str, torch.Tensor], list[str], list[bool], bool]:
    (row,), (truncated,) = tokenize(model, [text], limit)
    names = ("input_ids", "attention_mask", "token_type_ids")
    inputs = {k: torch.tensor([row[k]], device=model.device) for k in names if k in row}
    return inputs, model.tokenizer.convert_ids_to_tokens(row["input_ids"]), \
        [bool(s) for s in row["special_tokens_mask"]], truncated


def _attribute(model: LoadedModel, text: str, other: torch.Tensor, *, pooler: STModule, head: bool,
               score_layer: int,
               attribution_layer: int, steps: int, limit: int) -> TokenAttribution:
    inputs, tokens, special, truncated = _inputs(model, text, limit)
    extra = {k: v for k, v in inputs.items() if k != "input_ids"}
    baseline = padding_baseline(inputs["input_ids"], special, model.tokenizer.pad_token_id)

    def score(input_ids: torch.Tensor) -> torch.Tensor:
        batch = {k: v.expand(len(input_ids), -1) for k, v in extra.items()}
        hidden = model.network(input_ids=input_ids, **batch, output_hidden_states=True).hidden_states[score_layer]
        pooled = pool(pooler, hidden.float(), batch["attention_mask"])
        if head and model.head is not None:
            pooled = model.head(pooled)
        return torch.nn.functional.cosine_similarity(pooled, other.expand_as(pooled), dim=-1)

    attributions, gap = layer_attributions(score, _layer_module(model.network, attribution_layer), inputs["input_ids"],
                                           baseline, steps=steps)
    with torch.no_grad():
        actual, base = float(score(inputs["input_ids"])[0]), float(score(baseline)[0])
    return TokenAttribution(text, tokens, special, attributions, actual, base, float(gap or 0.0), truncated)


def attribute_pair(model: LoadedModel, a: str, b: str, *, pooling: Pooling = "default", layer: int | None = None,
                   attribution_layer: int | None = None, steps: int = 32, max_length: int | None = None,
                   progress: Progress | None = None) -> PairAttribution:
    """Integrated gradients of cos(A, B) (pooled at `layer`, None: the last) for A's tokens with B fixed and for
    B's with A fixed, at `attribution_layer` (None: the middle of the network, where it costs seconds, not
    minutes, on a laptop CPU)."""
    score_layer = layer_used(layer, model.num_layers)
    where = model.num_layers // 2 if attribution_layer is None else attribution_layer
    if not 0 <= where <= score_layer:
        raise ValueError(f"Attribute at a layer from 0 to {score_layer} (the layer the score is read at), not {where}.")
    if steps < 2:
        raise ValueError(f"Integrated gradients need at least 2 steps, not {steps}.")
    pooler = pooler_for(model, pooling)[1]
    head = pooling == DEFAULT and model.head is not None and score_layer == model.num_layers
    limit = model.token_limit(max_length)
    encoded = encode(model, [a, b], pooling=pooling, layer=score_layer, max_length=max_length).vectors
    fixed_a, fixed_b = (torch.from_numpy(v).to(model.device) for v in encoded)
    results = []
    for done, (text, other) in enumerate(((a, fixed_b), (b, fixed_a))):
        with torch.enable_grad():
            results.append(_attribute(model, text, other, pooler=pooler, head=head, score_layer=score_layer,
                                      attribution_layer=where, steps=steps, limit=limit))
        if progress is not None:
            progress(done + 1, 2)
    return PairAttribution(results[0], results[1], steps, where, score_layer)
