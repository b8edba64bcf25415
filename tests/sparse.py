"""Tiny random-weight sparse and reranker folders, saved by sentence-transformers itself in its own format
(config_sentence_transformers.json says SparseEncoder or CrossEncoder): a SPLADE (a BERT masked LM, SPLADE max
pooling), a SPLADE with query and document prompts and sum pooling, an inference-free SPLADE (a Router sends queries
to a SparseStaticEmbedding and documents to the masked LM), and a cross-encoder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import torch

from tests.architectures import HEADS, HIDDEN, LAYERS, POSITIONS

SPLADE_PROMPTS = {"query": "query: ", "document": "passage: "}
LOGIT_SHIFT = -0.3  # random masked-LM logits spread about 0.11: shifted down, a token activates a few dozen terms


def _masked_lm(folder: Path, shift: float = LOGIT_SHIFT) -> None:
    """A BERT masked LM with MiniLM's uncased vocabulary, its decoder's bias lowered by `shift` so vectors stay
    sparse."""
    from transformers import BertConfig, BertForMaskedLM

    from core.models.conversion import copy_tokenizer
    from core.models.packages import packaged_minilm_folder

    config = BertConfig(vocab_size=30522, hidden_size=HIDDEN, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                        intermediate_size=2 * HIDDEN, max_position_embeddings=POSITIONS)
    torch.manual_seed(2)
    network = BertForMaskedLM(config)
    with torch.no_grad():
        network.cls.predictions.bias.fill_(shift)
    network.save_pretrained(folder)
    copy_tokenizer(packaged_minilm_folder(), folder)


def _splade_modules(folder: Path, strategy: str = "max", activation: str = "relu",
                    shift: float = LOGIT_SHIFT) -> list:
    from sentence_transformers.base.modules import Transformer
    from sentence_transformers.sparse_encoder.modules import SpladePooling

    _masked_lm(folder, shift)
    return [Transformer(str(folder), transformer_task="fill-mask"),
            SpladePooling(pooling_strategy=strategy, activation_function=activation)]


def _save(folder: Path, modules: list, **options) -> Path:
    from sentence_transformers import SparseEncoder

    SparseEncoder(modules=modules, device="cpu", **options).save(str(folder))
    return folder


def splade(folder: Path) -> Path:
    return _save(folder, _splade_modules(folder))


def splade_prompted(folder: Path) -> Path:
    """Query and document prompts, sum pooling, the log1p_relu activation and cosine similarity."""
    return _save(folder, _splade_modules(folder, "sum", "log1p_relu"), prompts=SPLADE_PROMPTS,
                 similarity_fn_name="cosine")


def inference_free_splade(folder: Path) -> Path:
    """Queries: a weight per token present (SparseStaticEmbedding, no network); documents: the masked LM, less
    sparse, so that a query's few terms meet most documents (as a trained model's expansion makes them)."""
    from sentence_transformers.base.modules import Router
    from sentence_transformers.sparse_encoder.modules import SparseStaticEmbedding

    document = _splade_modules(folder / "mlm", shift=-0.1)
    torch.manual_seed(3)
    query = [SparseStaticEmbedding(tokenizer=document[0].tokenizer, weight=torch.rand(30522) * 3)]
    return _save(folder, [Router.for_query_document(query, document)], similarity_fn_name="dot")


SPARSE_FIXTURES: dict[str, Callable[[Path], Path]] = {
    "splade": splade, "splade-prompted": splade_prompted, "inference-free": inference_free_splade,
}


def cross_encoder(folder: Path) -> Path:
    """A BERT that reads a query and a text together and gives one score (sentence-transformers' CrossEncoder)."""
    from sentence_transformers import CrossEncoder
    from transformers import BertConfig, BertForSequenceClassification

    from core.models.conversion import copy_tokenizer
    from core.models.packages import packaged_minilm_folder

    config = BertConfig(vocab_size=30522, hidden_size=HIDDEN, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                        intermediate_size=2 * HIDDEN, max_position_embeddings=POSITIONS, num_labels=1)
    torch.manual_seed(4)
    network = BertForSequenceClassification(config)
    with torch.no_grad():  # random logits spread wide, so that no two pairs tie after the sigmoid
        network.classifier.weight.mul_(200)
    network.save_pretrained(folder / "bert")
    copy_tokenizer(packaged_minilm_folder(), folder / "bert")
    CrossEncoder(str(folder / "bert"), device="cpu").save(str(folder))
    return folder
