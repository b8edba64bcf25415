"""Models on the Hugging Face hub, as huggingface_hub fetches them: from its local cache, else downloaded on first use
unless a switch turns downloads off (huggingface_hub's offline mode, HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1, or
the deployment's allow_downloads = false). Every refusal is one sentence that names the hub id and a way forward."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from core.deployment import load_config, where_set
from core.models.catalog import Availability
from core.models.download import download, loaded_patterns


@dataclass(frozen=True)
class DownloadSwitch:
    said: str  # as it is set, e.g. "HF_HUB_OFFLINE=1"
    undo: str  # what turns downloads back on


def download_switches() -> list[DownloadSwitch]:
    """The switches that turn downloads off now (none: downloads are on). Offline mode is huggingface_hub's own,
    read once when it is imported (from HF_HUB_OFFLINE, else TRANSFORMERS_OFFLINE); the variables only name it."""
    from huggingface_hub import is_offline_mode

    switches = []
    if is_offline_mode():
        name = next((name for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE") if os.environ.get(name)),
                    "HF_HUB_OFFLINE")
        switches.append(DownloadSwitch(f"{name}={os.environ.get(name, '1')}", f"start without {name}"))
    if not load_config().allow_downloads:
        switches.append(DownloadSwitch(where_set("allow_downloads"), "set allow_downloads to true"))
    return switches


def cached_folder(repo: str, revision: str | None = None) -> Path | None:
    """The model's snapshot at `revision` (main by default: the commit the cache last saw main at) in the local
    Hugging Face cache, found without the network, or None (as for a snapshot that a download left incomplete:
    huggingface_hub raises IncompleteSnapshotError, a LocalEntryNotFoundError)."""
    from huggingface_hub import get_cached_repo_tree, snapshot_download
    from huggingface_hub.errors import CachedRepoTreeNotFoundError, LocalEntryNotFoundError

    try:  # the pickled-only weights a download fetched are loaded too, so a snapshot that lacks them is incomplete
        recorded = [item.path for item in get_cached_repo_tree(repo, revision=revision)]
    except (CachedRepoTreeNotFoundError, ValueError, OSError):  # never downloaded, or not at this revision
        recorded = []
    try:
        return Path(snapshot_download(repo, revision=revision, local_files_only=True,
                                      allow_patterns=loaded_patterns(recorded)))
    except (LocalEntryNotFoundError, FileNotFoundError, ValueError, OSError):
        return None


def hub_availability(repo: str, revision: str | None = None) -> Availability:
    if cached_folder(repo, revision) is not None:
        return Availability(True, "In the local Hugging Face cache.")
    switches = download_switches()
    if switches:
        said = " and ".join(switch.said for switch in switches)
        undo = " and ".join(switch.undo for switch in switches)
        verb = "turns" if len(switches) == 1 else "turn"
        named = f"'{repo}'" + ("" if revision is None else f" at revision '{revision}'")
        return Availability(False, f"{named} is not in the local Hugging Face cache, and {said} {verb} downloads "
                                   f"off; on a machine with network, {undo}, or choose a model that is already here.")
    return Availability(True, "Downloads from the Hugging Face hub on first use.")


def hub_folder(repo: str, revision: str | None = None) -> Path:
    """The model's folder at `revision` (main by default): from the cache, else downloaded (only called when
    hub_availability said available)."""
    return cached_folder(repo, revision) or download(repo, revision=revision)
