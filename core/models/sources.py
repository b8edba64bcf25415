"""Where each kind of catalog model comes from: a registry of sources (name -> how to tell whether a model of
that source is here, and how to find or build its folder), so adding a source is one entry."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.deployment import load_config
from core.models.catalog import (
    LATE,
    Availability,
    CatalogEntry,
    ModelKind,
    ModelUnavailable,
    Source,
    find_entry,
    finetuned_dir,
)
from core.models.conversion import converted_l3, l3_converted, l3_folder
from core.models.hub import cached_folder, download_switches, hub_availability, hub_folder
from core.models.packages import l3_onnx_file, mpnet_folder, packaged_minilm_folder, splade_folder
from core.models.remote_code import refuse_own_code

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


@dataclass(frozen=True)
class ModelSource:
    """`availability` may raise ModelUnavailable (read as "not available, because …"); `folder` is called only
    for an available model and may build or fetch it."""

    availability: Callable[[CatalogEntry], Availability]
    folder: Callable[[CatalogEntry], Path]


def _custom_target(model_id: str) -> Path | str:
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
        if not (folder / "config.json").is_file() and not (folder / "modules.json").is_file():
            raise ModelUnavailable(f"The folder '{model_id}' holds neither config.json nor modules.json, so it is "
                                   "not a model folder.")
        return folder.resolve()
    if ".." in model_id or not _HUB_ID.match(model_id):
        raise ModelUnavailable(
            f"'{model_id}' is neither a model folder on this machine nor a Hugging Face id like owner/name."
        )
    return model_id


def _custom_availability(entry: CatalogEntry) -> Availability:
    target = _custom_target(entry.id)
    return Availability(True, "A local model folder.") if isinstance(target, Path) else hub_availability(target)


def _custom_folder(entry: CatalogEntry) -> Path:
    target = _custom_target(entry.id)
    return target if isinstance(target, Path) else hub_folder(target)


def _packaged(reason: str) -> Callable[[CatalogEntry], Availability]:
    def check(entry: CatalogEntry) -> Availability:
        packaged_minilm_folder()
        return Availability(True, reason)
    return check


def _packaged_at(folder: Callable[[], Path]) -> Callable[[CatalogEntry], Availability]:
    def check(entry: CatalogEntry) -> Availability:
        folder()
        return Availability(True, "Packaged with the app.")
    return check


def _converted_availability(entry: CatalogEntry) -> Availability:
    l3_onnx_file()
    if l3_converted(l3_folder()):
        return Availability(True, "Converted.")
    return Availability(True, "Converts from ONNX on first use (a few seconds).")


def _extra_availability(entry: CatalogEntry) -> Availability:
    if (mpnet_folder() / "config.json").exists():
        return Availability(True, "Assembled in the model cache.")
    return Availability(False, "Not installed (an optional 404 MB extra).",
                        "Run `make models-extra` once to install it.")


SOURCES: dict[Source, ModelSource] = {
    "packaged": ModelSource(_packaged("Packaged with the app."), lambda entry: packaged_minilm_folder()),
    "random": ModelSource(_packaged("Built from seeded random weights."), lambda entry: packaged_minilm_folder()),
    "converted": ModelSource(_converted_availability, lambda entry: converted_l3()),
    "extra": ModelSource(_extra_availability, lambda entry: mpnet_folder()),
    "splade": ModelSource(_packaged_at(splade_folder), lambda entry: splade_folder()),
    "hub": ModelSource(lambda entry: hub_availability(str(entry.repo)), lambda entry: hub_folder(str(entry.repo))),
    "finetuned": ModelSource(lambda entry: Availability(True, "Fine-tuned on this machine."),
                             lambda entry: finetuned_dir() / entry.id),
    "custom": ModelSource(_custom_availability, _custom_folder),
}


ST_TYPES: dict[str, ModelKind] = {"SentenceTransformer": "dense", "SparseEncoder": "sparse",
                                   "CrossEncoder": "reranker", "MultiVectorEncoder": LATE,
                                   "ColBERT": LATE}  # "ColBERT": a PyLate checkpoint, which MultiVectorEncoder promotes


@dataclass(frozen=True)
class ResolvedModel:
    """A model id looked up once: its catalog entry, the folder that holds it, and what kind of model it is."""

    entry: CatalogEntry
    folder: Path
    kind: ModelKind


def _json(path: Path) -> dict:
    try:
        parsed = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise ModelUnavailable(f"{path} is not JSON, so what kind of model this is cannot be read; fix or remove the "
                               "file.") from err
    if not isinstance(parsed, dict):
        raise ModelUnavailable(f"{path} is not a JSON object, so what kind of model this is cannot be read; fix or "
                               "remove the file.")
    return parsed


def folder_kind(folder: Path) -> ModelKind:
    """The kind sentence-transformers loads a folder as: its config_sentence_transformers.json's `model_type`; a
    Stanford ColBERT checkpoint (config.json's architectures name HF_ColBERT) is late interaction, as
    MultiVectorEncoder reads it; any other folder without a model type (a plain transformers checkpoint, or an older
    save) is a dense model, as sentence-transformers says."""
    config = folder / "config_sentence_transformers.json"
    model_type = _json(config).get("model_type") if config.is_file() else None
    if model_type is None:
        architectures = (_json(folder / "config.json").get("architectures") or []
                         if (folder / "config.json").is_file() else [])
        return LATE if "HF_ColBERT" in architectures else "dense"
    if model_type not in ST_TYPES:
        raise ModelUnavailable(f"The folder holds a sentence-transformers {model_type}, which this app does not load "
                               "(it loads SentenceTransformer, SparseEncoder, CrossEncoder and MultiVectorEncoder "
                               "models); pick another model.")
    return ST_TYPES[model_type]


def _availability(entry: CatalogEntry) -> Availability:
    try:
        return SOURCES[entry.source].availability(entry)
    except ModelUnavailable as err:
        return Availability(False, str(err))


def availability(model_id: str) -> Availability:
    return _availability(find_entry(model_id))


def downloads_off_note() -> str | None:
    """Why the catalog's hub models that the cache lacks are not available, in one sentence naming the switches that
    turn downloads off; None while downloads are on."""
    switches = download_switches()
    if not switches:
        return None
    verb = "turns" if len(switches) == 1 else "turn"
    return (f"Models from the Hugging Face hub that are not in the local cache are not available: "
            f"{' and '.join(switch.said for switch in switches)} {verb} downloads off; on a machine with network, "
            f"{' and '.join(switch.undo for switch in switches)}.")


def _hub_repo(entry: CatalogEntry) -> str | None:
    """The hub id `entry` loads from (a catalog hub model, or a typed hub id), or None for a model from elsewhere;
    ModelUnavailable for a typed id that is refused."""
    if entry.source == "hub":
        return entry.repo
    if entry.source == "custom":
        target = _custom_target(entry.id)
        return None if isinstance(target, Path) else target
    return None


def pending_download(model_id: str, revision: str | None = None) -> str | None:
    """The hub id that loading `model_id` (at `revision`, main by default) would download now (a hub model not in
    the cache, with downloads on), so that the app can download it in the background first; None for every other
    model, which loads (or is refused) as it is."""
    try:
        repo = _hub_repo(find_entry(model_id))
    except ModelUnavailable:
        return None
    return None if repo is None or cached_folder(repo, revision) is not None or download_switches() else repo


def _resolve_revision(entry: CatalogEntry, revision: str) -> ResolvedModel:
    repo = _hub_repo(entry)
    if repo is None:
        raise ModelUnavailable(f"'{entry.id}' does not come from the Hugging Face hub, so it has no revisions; leave "
                               "the revision out.")
    status = hub_availability(repo, revision)
    if not status.available:
        raise ModelUnavailable(status.message)
    return _resolved(entry, hub_folder(repo, revision))


def _resolved(entry: CatalogEntry, folder: Path) -> ResolvedModel:
    """The entry's folder, refused if it names code of its own; its kind is the catalog's, else the folder's."""
    refuse_own_code(entry.id, folder)
    return ResolvedModel(entry, folder, entry.kind or folder_kind(folder))


def resolve(model_id: str, revision: str | None = None) -> ResolvedModel:
    """`model_id`'s entry, folder (built or fetched when allowed) and kind; ModelUnavailable says why not. A
    `revision` (a branch, tag or commit) applies to a model from the hub, and gives its files at that revision."""
    entry = find_entry(model_id)
    if revision is not None:
        return _resolve_revision(entry, revision)
    status = _availability(entry)
    if not status.available:
        raise ModelUnavailable(status.message)
    return _resolved(entry, SOURCES[entry.source].folder(entry))
