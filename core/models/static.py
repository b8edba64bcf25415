"""A static-embedding model (sentence-transformers' `StaticEmbedding`, as model2vec makes them) seen as an encoder
with no transformer layers: layer 0, the token embeddings, is also the last, and mean pooling over it is exactly
the `EmbeddingBag` mean sentence-transformers computes. So every page that pools token states works on it, and
the pages that need layers or attention say why they cannot."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import torch

NO_LIMIT = 1_000_000  # a static model reads every token of a text: sentence-transformers never truncates it


class StaticNetwork(torch.nn.Module):
    """The token-embedding table of a `StaticEmbedding`, answering the calls the encoder makes of a transformer:
    `last_hidden_state` and `hidden_states` (one entry: layer 0) for a padded batch of token ids."""

    def __init__(self, static: Any) -> None:  # a sentence-transformers StaticEmbedding
        super().__init__()
        from transformers import PretrainedConfig

        self.embed_tokens = torch.nn.Embedding.from_pretrained(static.embedding.weight, freeze=False)
        self.config = PretrainedConfig.from_dict({"num_hidden_layers": 0, "hidden_size": static.embedding_dim,
                                                  "max_position_embeddings": NO_LIMIT, "model_type": "static"})

    def get_input_embeddings(self) -> torch.nn.Module:
        return self.embed_tokens

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                output_hidden_states: bool = False, **_: object) -> SimpleNamespace:
        states = self.embed_tokens(input_ids)
        return SimpleNamespace(last_hidden_state=states, hidden_states=(states,) if output_hidden_states else None)


def static_tokenizer(static: Any):
    """The module's tokenizer as a transformers fast tokenizer that adds no special token (sentence-transformers
    encodes static models with `add_special_tokens=False`) and pads with id 0, which pooling masks out."""
    from tokenizers.processors import TemplateProcessing
    from transformers import PreTrainedTokenizerFast

    raw = copy.deepcopy(static.tokenizer)
    limit = (raw.truncation or {}).get("max_length", NO_LIMIT)  # where its own tokenizer cuts, the app cuts too
    raw.post_processor = TemplateProcessing(single="$A", pair="$A $B", special_tokens=[])
    return PreTrainedTokenizerFast(tokenizer_object=raw, pad_token=raw.id_to_token(0), model_max_length=limit)
