"""Loading a catalog model (or an allowed custom one) for inference, offline; remote code never runs."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, field
from pathlib import Path

import torch

from core.encoding.memo import EmbeddingMemo
from core.models.catalog import DEFAULT_MODEL_ID, CatalogEntry, ModelUnavailable, find_entry
from core.models.devices import resolve_device
from core.models.sources import model_folder
from core.models.st_folder import StPipeline, read_pipeline

UNTRAINED_SEED = 0
UNTRAINED_MAX_SEQ_LENGTH = 256


@dataclass
class LoadedModel:
    model_id: str
    entry: CatalogEntry
    folder: Path
    tokenizer: object
    network: torch.nn.Module
    pipeline: StPipeline
    dense: torch.nn.Module | None
    max_length: int
    max_positions: int
    device: str
    fingerprint: str
    memo: EmbeddingMemo = field(default_factory=EmbeddingMemo)

    @property
    def num_layers(self) -> int:
        return int(self.network.config.num_hidden_layers)

    @property
    def hidden_size(self) -> int:
        return int(self.network.config.hidden_size)

    @property
    def default_pooling(self) -> str:
        return self.pipeline.pooling

    @property
    def normalizes(self) -> bool:
        return self.pipeline.normalizes

    def token_limit(self, max_length: int | None) -> int:
        """The tokens a text is cut at: `max_length` (else the model's default), never past its positions."""
        return min(max_length or self.max_length, self.max_positions)


def untrained_pipeline(folder: Path) -> StPipeline:
    """untrained-bert pools by the mean and normalises nothing, whatever the folder it borrows describes."""
    return StPipeline(transformer=read_pipeline(folder).transformer, max_seq_length=UNTRAINED_MAX_SEQ_LENGTH)


def untrained_network(config) -> torch.nn.Module:
    """The architecture of `config` with random weights drawn from the fixed seed: the same every time."""
    from transformers import AutoModel

    torch.manual_seed(UNTRAINED_SEED)
    return AutoModel.from_config(config)


def _fingerprint(folder: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for weights in sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin")):
        with weights.open("rb") as fh:
            digest.update(hashlib.file_digest(fh, "blake2b").digest())
    return digest.hexdigest()


def _trained_network(model_id: str, base: Path) -> torch.nn.Module:
    """The checkpoint's network; transformers picks the attention (SDPA where the architecture has it)."""
    from transformers import AutoModel

    try:
        network, loading = AutoModel.from_pretrained(base, local_files_only=True, trust_remote_code=False,
                                                     use_safetensors=any(base.glob("*.safetensors")) or None,
                                                     output_loading_info=True)
    except pickle.UnpicklingError as err:  # torch.load(weights_only=True) met code in a pickle checkpoint
        raise ModelUnavailable(f"'{model_id}' holds a pickle checkpoint that would run code when loaded, so it "
                               "was refused; use a safetensors copy of the model.") from err
    if getattr(network, "pooler", None) is not None and any(
            key.startswith("pooler.") for key in loading["missing_keys"]):
        network.pooler = None  # not in the checkpoint: random weights we would never use
    return network


def load_model(model_id: str = DEFAULT_MODEL_ID, device: str = "auto") -> LoadedModel:
    from transformers import AutoConfig, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # e.g. "pooler newly initialized": we never use the pooler
    hf_logging.disable_progress_bar()
    entry = find_entry(model_id)
    folder = model_folder(model_id)
    target = resolve_device(device)
    if entry.untrained:
        pipeline = untrained_pipeline(folder)
        config = AutoConfig.from_pretrained(pipeline.transformer, local_files_only=True)
        network = untrained_network(config)
        config_hash = hashlib.blake2b(config.to_json_string().encode(), digest_size=8).hexdigest()
        fingerprint = f"untrained-seed{UNTRAINED_SEED}-{config_hash}"
    else:
        pipeline = read_pipeline(folder)
        network = _trained_network(model_id, pipeline.transformer)
        fingerprint = _fingerprint(pipeline.transformer)
    tokenizer = AutoTokenizer.from_pretrained(pipeline.transformer, local_files_only=True, trust_remote_code=False)
    dense = pipeline.dense_stack()
    positions = int(getattr(network.config, "max_position_embeddings", 512))
    limit = tokenizer.model_max_length if tokenizer.model_max_length < 100_000 else positions
    network.eval().to(target)
    if dense is not None:
        dense.eval().to(target)
    return LoadedModel(model_id=model_id, entry=entry, folder=folder, tokenizer=tokenizer, network=network,
                       pipeline=pipeline, dense=dense, max_length=int(min(pipeline.max_seq_length or limit, limit,
                                                                          positions)),
                       max_positions=int(min(limit, positions)), device=target, fingerprint=fingerprint)
