"""Which terms each layer of a SPLADE model would activate: the masked-LM head applied to every layer's token states,
then the model's own SpladePooling. At the last layer this is exactly the model's vector of the text (the document
side's, as encode_document gives it); earlier layers show how the expansion builds up through the network."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
import torch

from core.analysis.terms import term_names
from core.encoding.encoder import prompt_tokens_checked, tokenize
from core.models.loading import LoadedModel

TOP_TERMS = 8


@contextmanager
def _states_swapped(network: torch.nn.Module, states: torch.Tensor) -> Iterator[None]:
    """While held, the masked LM's base network hands its head `states` in place of its last layer's: the head of
    any masked-LM architecture (BERT's `cls`, RoBERTa's `lm_head` …) then reads another layer."""

    def swap(module, args, output):
        output["last_hidden_state"] = states
        return output

    handle = network.register_forward_hook(swap)
    try:
        yield
    finally:
        handle.remove()


@dataclass(frozen=True)
class LayerTerms:
    """`rows[layer]` holds each text's vector from that layer's states (texts, vocabulary), CSR; layer 0 is the
    embedding layer."""

    texts: list[str]
    rows: list[sp.csr_matrix]

    def active(self) -> pd.DataFrame:
        """Active terms per text and layer: one row per (text, layer)."""
        return pd.DataFrame([{"text": t + 1, "layer": layer, "active terms": int(rows[t].nnz)}
                             for layer, rows in enumerate(self.rows) for t in range(len(self.texts))])

    def dense(self) -> np.ndarray:
        """(layers + 1, texts, vocabulary): for the few texts of the Layers page, never a corpus."""
        return np.stack([rows.toarray() for rows in self.rows])


def layer_terms(model: LoadedModel, texts: Sequence[str], *, max_length: int | None = None,
                prompt: str = "") -> LayerTerms:
    """Every text's SPLADE vector from every layer's token states, in one pass through the network and one pass
    through the head per layer."""
    splade = model.sparse_pipeline.splade
    if splade is None or not model.sparse_pipeline.terms:
        raise ValueError(f"{model.model_id} is not a SPLADE model (a masked LM with SPLADE pooling), so its layers "
                         "have no terms to show.")
    texts = list(texts)
    limit = model.token_limit(max_length)
    prompt_tokens_checked(model, prompt, limit)
    rows, _ = tokenize(model, [prompt + text for text in texts], limit)
    features = [{k: row[k] for k in ("input_ids", "attention_mask", "token_type_ids") if k in row} for row in rows]
    batch = {k: v.to(model.device) for k, v in model.tokenizer.pad(features, return_tensors="pt").items()}
    mlm = model.sparse_pipeline.transformer.auto_model
    found = []
    with torch.inference_mode():
        hidden = model.network(**batch, output_hidden_states=True).hidden_states
        for states in hidden:
            with _states_swapped(model.network, states):
                logits = mlm(**batch).logits
            pooled = splade({"token_embeddings": logits.float(), "attention_mask": batch["attention_mask"]})
            found.append(sp.csr_matrix(pooled["sentence_embedding"].cpu().numpy()))
    return LayerTerms(texts, found)


def top_terms_by_layer(model: LoadedModel, found: LayerTerms, text: int, top: int = TOP_TERMS) -> pd.DataFrame:
    """One text's heaviest terms at each layer, with how many terms that layer activates."""
    table = []
    for layer, rows in enumerate(found.rows):
        row = rows[text]
        order = np.argsort(-row.data, kind="stable")[:top]
        names = term_names(model, row.indices[order])
        table.append({"layer": layer, "active terms": int(row.nnz),
                      "top terms": ", ".join(f"{name} {weight:.2f}" for name, weight in zip(names, row.data[order]))})
    return pd.DataFrame(table)
