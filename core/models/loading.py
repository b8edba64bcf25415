"""Loading a catalog model (or an allowed custom one), offline and never running remote code. The id is resolved once
into its entry, folder and kind; sentence-transformers reads the folder as that kind. A dense model's inference uses
its transformer's network and pools every layer itself (core.encoding), fine-tuning trains the SentenceTransformer
as it is; a sparse model encodes through its own SparseEncoder; a reranker is never loaded here (core.models.reranker).
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import torch

from core.models.building import BUILDING
from core.models.catalog import DEFAULT_MODEL_ID, LATE, CatalogEntry, ModelKind, ModelUnavailable
from core.models.devices import resolve_device
from core.models.image_text import ImagesAndTexts, ImageTextModel, has_images
from core.models.in_memory import keep_track
from core.models.memo import EmbeddingMemo
from core.models.pipeline import (
    Head,
    LateInteractionPipeline,
    Pipeline,
    SparsePipeline,
    late_interaction_pipeline,
    pipeline_of,
    sparse_pipeline,
)
from core.models.quiet import quiet_transformers
from core.models.remote_code import own_code_refusal
from core.models.sources import ResolvedModel, resolve
from core.models.static import StaticNetwork, static_tokenizer

T = TypeVar("T")
UNTRAINED_SEED = 0
UNTRAINED_MAX_SEQ_LENGTH = 256


@dataclass
class LoadedModel:
    model_id: str
    entry: CatalogEntry
    folder: Path
    tokenizer: Any  # a transformers fast tokenizer
    network: Any  # a transformers model, or a static model's StaticNetwork
    pipeline: Pipeline
    head: Head | None
    max_length: int
    max_positions: int
    device: str
    fingerprint: str
    dimensions: int  # of the model's own sentence vectors (after its Dense head; a sparse model's vocabulary)
    kind: ModelKind = "dense"
    sparse: Any = None  # a sparse model's sentence_transformers.SparseEncoder, which encodes its texts
    multivector: Any = None  # a late-interaction model's sentence_transformers.MultiVectorEncoder, likewise
    memo: EmbeddingMemo = field(default_factory=EmbeddingMemo)

    @property
    def num_layers(self) -> int:
        return int(self.network.config.num_hidden_layers)

    @property
    def static(self) -> bool:
        """A static-embedding model: token vectors looked up without context, no transformer layers."""
        return isinstance(self.network, StaticNetwork)

    @property
    def hidden_size(self) -> int:
        return int(self.network.config.hidden_size)

    @property
    def default_pooling(self) -> str:
        """The model's own pooling in this project's names ("mean", or "mean + max" for several modes)."""
        return " + ".join(self.pipeline.pooling)

    @property
    def sparse_pipeline(self) -> SparsePipeline:
        if not isinstance(self.pipeline, SparsePipeline):
            raise ValueError(f"{self.model_id} is a {self.kind} model, not a sparse one.")
        return self.pipeline

    @property
    def late_pipeline(self) -> LateInteractionPipeline:
        if not isinstance(self.pipeline, LateInteractionPipeline):
            raise ValueError(f"{self.model_id} is a {self.kind} model, not a late-interaction one.")
        return self.pipeline

    @property
    def normalizes(self) -> bool:
        return self.pipeline.normalizes

    def width(self, pooling: str) -> int:
        """The dimensions of the vectors a pooling gives at the last layer (the model's own: after its head)."""
        return self.dimensions if pooling == "default" else self.hidden_size

    def kept_dims(self, truncate_dim: int | None, pooling: str) -> int | None:
        """`truncate_dim` where this model's vectors are wider, else None (all of them)."""
        return truncate_dim if truncate_dim is not None and truncate_dim < self.width(pooling) else None

    def token_limit(self, max_length: int | None) -> int:
        """The tokens a text is cut at: `max_length` (else the model's default), never past its positions."""
        return min(max_length or self.max_length, self.max_positions)


def untrained_network(config) -> torch.nn.Module:
    """The architecture of `config` with random weights drawn from the fixed seed: the same every time."""
    from transformers import AutoModel

    torch.manual_seed(UNTRAINED_SEED)
    return AutoModel.from_config(config)


def untrained_copy(model: LoadedModel) -> LoadedModel:
    """`model` with its transformer's weights drawn afresh from the fixed seed (the same every time), its tokenizer,
    pooling and limits kept: the architecture without training, as a probe's baseline (Wieting & Kiela 2019)."""
    torch.manual_seed(UNTRAINED_SEED)
    network = type(model.network)(model.network.config).to(model.device).eval()
    return replace(model, network=network, fingerprint=f"untrained-seed{UNTRAINED_SEED}-{model.fingerprint}",
                   memo=EmbeddingMemo())


def _mean_pooled(folder: Path, device: str, *, untrained: bool):
    """Transformer + mean pooling, for a plain checkpoint (sentence-transformers' own default for one would pick
    last-token pooling for a causal LM) and for untrained-bert, which borrows a folder's architecture."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer

    transformer = Transformer(str(folder), max_seq_length=UNTRAINED_MAX_SEQ_LENGTH if untrained else None,
                              model_kwargs={"local_files_only": True, "trust_remote_code": False},
                              processor_kwargs={"local_files_only": True, "trust_remote_code": False},
                              config_kwargs={"local_files_only": True, "trust_remote_code": False})
    if untrained:
        transformer.auto_model.load_state_dict(untrained_network(transformer.auto_model.config).state_dict())
    if has_images(transformer):  # an image-and-text model's towers give one vector each: nothing to pool, as
        return SentenceTransformer(modules=[transformer], device=device)  # sentence-transformers builds it too
    return SentenceTransformer(modules=[transformer, Pooling(transformer.get_embedding_dimension(), "mean")],
                               device=device)


class NotAnEmbedder(ModelUnavailable):
    """A reranker (CrossEncoder) asked for where texts are embedded: it scores pairs instead."""


def reranker_refusal(model_id: str) -> NotAnEmbedder:
    return NotAnEmbedder(f"'{model_id}' is a reranker (a CrossEncoder): it scores a query and a text read together "
                         "rather than embedding each text, so it is used under Rerank on Retrieval and Evaluation.")


def refusing_code(model_id: str, load: Callable[[], T]) -> T:
    """`load()`, one build at a time, with the two ways a folder can ask to run code said as one sentence each."""
    try:
        with BUILDING:
            return load()
    except pickle.UnpicklingError as err:  # torch.load(weights_only=True) met code in a pickle checkpoint
        raise ModelUnavailable(f"'{model_id}' holds a pickle checkpoint that would run code when loaded, so it "
                               "was refused; use a safetensors copy of the model.") from err
    except ValueError as err:
        if "trust_remote_code" not in str(err):
            raise
        raise own_code_refusal(model_id) from err


def _sentence_transformer(resolved: ResolvedModel, device: str):
    from sentence_transformers import SentenceTransformer

    folder, entry = resolved.folder, resolved.entry

    def load():
        if entry.untrained or not (folder / "modules.json").exists():
            return _mean_pooled(folder, device, untrained=entry.untrained)
        return SentenceTransformer(str(folder), device=device, local_files_only=True, trust_remote_code=False)

    return refusing_code(entry.id, load)


def sentence_transformer(model_id: str, device: str = "cpu"):
    """The model as a `sentence_transformers.SentenceTransformer`: the folder's own modules (modules.json), else
    a mean-pooled transformer; untrained-bert gets seeded random weights. Transformers picks the attention
    implementation (SDPA where the architecture has it, eager otherwise). Only dense models have one."""
    quiet_transformers()
    resolved = resolve(model_id)
    if resolved.kind == "reranker":
        raise reranker_refusal(model_id)
    if resolved.kind != "dense":
        raise ModelUnavailable(f"'{model_id}' is a {resolved.kind} model; only dense (SentenceTransformer) models "
                               "are trained and distilled here.")
    return _sentence_transformer(resolved, device)


def weights_megabytes(folder: Path) -> float:
    """The size of the model's weight files, in MB (10^6 bytes)."""
    return sum(path.stat().st_size for path in _weight_files(folder)) / 1e6


def _weight_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.safetensors")) or sorted(folder.rglob("*.bin"))


def weights_fingerprint(folder: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for weights in _weight_files(folder):
        with weights.open("rb") as fh:
            digest.update(hashlib.file_digest(fh, "blake2b").digest())
    return digest.hexdigest()


def _checkpoint_has_pooler(folder: Path) -> bool:
    """Whether the safetensors checkpoint holds pooler weights (a pickle checkpoint is assumed to)."""
    from safetensors import safe_open

    files = sorted(folder.rglob("*.safetensors"))
    if not files:
        return True
    for path in files:
        with safe_open(str(path), framework="pt") as weights:
            if any(".pooler." in f".{key}" for key in weights.keys()):
                return True
    return False


def _limits(network, tokenizer, max_seq_length: int | None) -> tuple[int, int]:
    """The default token limit and the most positions the model reads."""
    positions = int(getattr(network.config, "max_position_embeddings", 512))
    limit = tokenizer.model_max_length if tokenizer.model_max_length < 100_000 else positions
    return int(min(max_seq_length or limit, limit, positions)), int(min(limit, positions))


def _load_dense(resolved: ResolvedModel, target: str) -> LoadedModel:
    entry, folder = resolved.entry, resolved.folder
    model = _sentence_transformer(resolved, target)
    if has_images(model):
        raise ImagesAndTexts(ImageTextModel(entry.id, model.eval(), weights_fingerprint(folder)))
    pipeline = pipeline_of(model, model_id=entry.id,
                           described=(folder / "modules.json").exists() and not entry.untrained)
    network: Any
    tokenizer: Any
    if type(model[0]).__name__ == "StaticEmbedding":
        network, tokenizer = StaticNetwork(model[0]).to(target), static_tokenizer(model[0])
    else:
        network, tokenizer = model[0].auto_model, model.tokenizer
    if entry.untrained:
        config = network.config.to_json_string()
        fingerprint = f"untrained-seed{UNTRAINED_SEED}-{hashlib.blake2b(config.encode(), digest_size=8).hexdigest()}"
    else:
        fingerprint = weights_fingerprint(folder)
        if getattr(network, "pooler", None) is not None and not _checkpoint_has_pooler(folder):
            network.pooler = None  # random weights the checkpoint lacks, never used by sentence pooling
    max_length, max_positions = _limits(network, tokenizer, pipeline.max_seq_length)
    network.eval()
    return LoadedModel(model_id=entry.id, entry=entry, folder=folder, tokenizer=tokenizer, network=network,
                       pipeline=pipeline, head=pipeline.head, max_length=max_length, max_positions=max_positions,
                       device=target, fingerprint=fingerprint,
                       dimensions=int(model.get_embedding_dimension() or network.config.hidden_size))


def _load_sparse(resolved: ResolvedModel, target: str) -> LoadedModel:
    """A SparseEncoder as sentence-transformers loads the folder (its modules; a plain masked LM gets SPLADE max
    pooling over its logits). Its document side's transformer gives the layers the pages look into."""
    from sentence_transformers import SparseEncoder

    entry, folder = resolved.entry, resolved.folder
    model = refusing_code(entry.id, lambda: SparseEncoder(str(folder), device=target, local_files_only=True,
                                                           trust_remote_code=False))
    pipeline = sparse_pipeline(model, model_id=entry.id)
    transformer = pipeline.transformer
    network, tokenizer = transformer.auto_model.base_model, transformer.tokenizer
    max_length, max_positions = _limits(network, tokenizer, transformer.max_seq_length)
    model.eval()
    return LoadedModel(model_id=entry.id, entry=entry, folder=folder, tokenizer=tokenizer, network=network,
                       pipeline=pipeline, head=None, max_length=max_length, max_positions=max_positions,
                       device=target, fingerprint=weights_fingerprint(folder), dimensions=int(pipeline.vocabulary),
                       kind="sparse", sparse=model)


def _load_late(resolved: ResolvedModel, target: str) -> LoadedModel:
    """A MultiVectorEncoder as sentence-transformers loads the folder (its own modules; a PyLate or Stanford ColBERT
    checkpoint promoted as its loader promotes it). Its transformer gives the layers the pages look into."""
    from sentence_transformers import MultiVectorEncoder

    entry, folder = resolved.entry, resolved.folder
    model = refusing_code(entry.id, lambda: MultiVectorEncoder(str(folder), device=target, local_files_only=True,
                                                                trust_remote_code=False))
    pipeline = late_interaction_pipeline(model, model_id=entry.id)
    network, tokenizer = pipeline.transformer.auto_model, model.tokenizer
    max_length, max_positions = _limits(network, tokenizer, pipeline.max_seq_length)
    model.eval()
    return LoadedModel(model_id=entry.id, entry=entry, folder=folder, tokenizer=tokenizer, network=network,
                       pipeline=pipeline, head=None, max_length=max_length, max_positions=max_positions,
                       device=target, fingerprint=weights_fingerprint(folder), dimensions=pipeline.width,
                       kind=LATE, multivector=model)


LOADERS: dict[ModelKind, Callable[[ResolvedModel, str], LoadedModel]] = {
    "dense": _load_dense, "sparse": _load_sparse, LATE: _load_late}


def load_model(model_id: str = DEFAULT_MODEL_ID, device: str = "auto", revision: str | None = None) -> LoadedModel:
    """An embedding model, dense, sparse or late interaction, loaded once from the folder its id resolves to (a hub
    model's at `revision`, main by default); a reranker is refused with the sentence that says where it is used."""
    quiet_transformers()
    resolved = resolve(model_id, revision)
    if resolved.kind == "reranker":
        raise reranker_refusal(model_id)
    return keep_track(LOADERS[resolved.kind](resolved, resolve_device(device)))
