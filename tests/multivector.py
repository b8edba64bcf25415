"""Tiny random-weight late-interaction folders, saved by sentence-transformers' MultiVectorEncoder itself (or, for
the formats its loader promotes, as PyLate and Stanford ColBERT save theirs): a ColBERT with query and document
prompts, query expansion, a punctuation skiplist, a projection and token normalisation; a MeanMaxSim model whose
queries are expanded only up to a floor (the expansion attended) and whose pipeline pools document tokens; a PyLate
checkpoint with [unused0] / [unused1] markers; a Stanford ColBERT checkpoint."""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from pathlib import Path

import torch

from tests.architectures import HEADS, HIDDEN, LAYERS, POSITIONS

WIDTH = 16  # the projection's output: each token vector's dimensions
EXPANSION = 16  # the length queries are expanded to
PROMPTS = {"query": "query: ", "document": "passage: "}
TEXTS = ["What is a cat?", "A cat sleeps on the warm rug.", "Stocks fell sharply today, again!",
         "The bank by the river (north side).", "a man plays the guitar", "Where do cats sleep?"]


def _bert(folder: Path, seed: int = 1) -> Path:
    from transformers import BertConfig, BertModel

    from core.models.conversion import copy_tokenizer
    from core.models.packages import packaged_minilm_folder

    config = BertConfig(vocab_size=30522, hidden_size=HIDDEN, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                        intermediate_size=2 * HIDDEN, max_position_embeddings=POSITIONS)
    torch.manual_seed(seed)
    BertModel(config).save_pretrained(folder)
    copy_tokenizer(packaged_minilm_folder(), folder)
    return folder


def _projection(seed: int = 2):
    from sentence_transformers.base.modules.dense import Dense

    torch.manual_seed(seed)
    return Dense(HIDDEN, WIDTH, bias=False, activation_function=torch.nn.Identity(),
                 module_input_name="token_embeddings")


def _save(folder: Path, modules: list, **options) -> Path:
    from sentence_transformers import MultiVectorEncoder

    MultiVectorEncoder(modules=modules, device="cpu", **options).save(str(folder))
    return folder


def colbert(folder: Path) -> Path:
    from sentence_transformers.base.modules import Normalize, Transformer
    from sentence_transformers.multi_vector_encoder.modules import MultiVectorMask

    transformer = Transformer(str(_bert(folder / "bert")), document_length=48,
                              query_expansion={"strategy": "fixed", "attend": False, "length": EXPANSION})
    mask = MultiVectorMask(skiplist_words=list(string.punctuation))
    return _save(folder / "model", [transformer, _projection(), mask, Normalize(module_input_name="token_embeddings")],
                 prompts=PROMPTS)


def pooled_meanmaxsim(folder: Path) -> Path:
    from sentence_transformers.base.modules import Normalize, Transformer
    from sentence_transformers.multi_vector_encoder.modules import HierarchicalTokenPooling, MultiVectorMask

    transformer = Transformer(str(_bert(folder / "bert", seed=3)), query_length=24,
                              query_expansion={"strategy": "min", "attend": True, "length": 10})
    return _save(folder / "model", [transformer, _projection(4), MultiVectorMask(),
                                    Normalize(module_input_name="token_embeddings"),
                                    HierarchicalTokenPooling(pool_factor=2)],
                 similarity_fn_name="meanmaxsim")


def pylate(folder: Path) -> Path:
    """As PyLate saves a ColBERT (its v3 layout: model_type ColBERT, the markers and lengths at the top of
    config_sentence_transformers.json, modules.json naming its own Dense), which MultiVectorEncoder promotes."""
    model = colbert(folder / "native")
    target = folder / "model"
    target.mkdir()
    for path in model.iterdir():
        if path.is_file() and path.name not in ("modules.json", "config_sentence_transformers.json"):
            (target / path.name).write_bytes(path.read_bytes())
    (target / "1_Dense").mkdir()
    for path in (model / "1_Dense").iterdir():
        (target / "1_Dense" / path.name).write_bytes(path.read_bytes())
    config = json.loads((target / "sentence_bert_config.json").read_text())
    config.pop("query_expansion", None)
    (target / "sentence_bert_config.json").write_text(json.dumps(config))
    (target / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Dense", "type": "pylate.models.Dense.Dense"}]))
    (target / "config_sentence_transformers.json").write_text(json.dumps({
        "model_type": "ColBERT", "query_prefix": "[unused0]", "document_prefix": "[unused1]", "query_length": 12,
        "document_length": 40, "attend_to_expansion_tokens": False, "skiplist_words": list("!,.?"),
        "similarity_fn_name": "MaxSim", "prompts": {}, "default_prompt_name": None}))
    return target


def stanford(folder: Path) -> Path:
    """As Stanford's ColBERT saves one: a BERT whose config.json names HF_ColBERT, the projection as `linear.weight`
    beside the encoder's weights, the markers and lengths in artifact.metadata."""
    from safetensors.torch import load_file, save_file

    target = _bert(folder, seed=5)
    weights = {f"bert.{name}": tensor for name, tensor in load_file(str(target / "model.safetensors")).items()}
    torch.manual_seed(6)
    weights["linear.weight"] = torch.randn(WIDTH, HIDDEN) / HIDDEN ** 0.5
    save_file(weights, str(target / "model.safetensors"), metadata={"format": "pt"})
    config = json.loads((target / "config.json").read_text())
    config["architectures"] = ["HF_ColBERT"]
    (target / "config.json").write_text(json.dumps(config))
    (target / "artifact.metadata").write_text(json.dumps({
        "query_token_id": "[unused0]", "doc_token_id": "[unused1]", "query_maxlen": 12, "doc_maxlen": 40,
        "mask_punctuation": True, "attend_to_mask_tokens": False}))
    return target


LATE_FIXTURES: dict[str, Callable[[Path], Path]] = {
    "colbert": colbert, "pooled-meanmaxsim": pooled_meanmaxsim, "pylate": pylate, "stanford": stanford,
}
