"""The models downloaded into huggingface_hub's cache, as its scan_cache_dir reports them (each model repo's size on
disk, when its files were last read and last written, the commits it holds), and a model's deletion by
huggingface_hub's own delete strategy (HFCacheInfo.delete_revisions(...).execute()). A deployment can switch deleting
off (allow_model_deletion), and a model this server holds in memory is never deleted from under it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from core.deployment import load_config, where_set
from core.models.in_memory import folders_in_memory
from core.progress import byte_size

if TYPE_CHECKING:
    from huggingface_hub import CachedRepoInfo, HFCacheInfo


class DeletionRefused(ValueError):
    """A model that may not be deleted now, with the reason and what to do in one sentence."""


@dataclass(frozen=True)
class DownloadedModel:
    repo_id: str
    size_on_disk: int  # bytes of its blobs, as scan_cache_dir counts them
    last_accessed: float  # seconds since the epoch: the latest time one of its files was read (the file system's atime)
    last_modified: float  # the latest time one of its files was written
    revisions: tuple[str, ...]  # each commit it holds, newest first, with the refs that point at it: "1a2b3c4 (main)"


def hub_cache() -> Path:
    """huggingface_hub's cache folder (HF_HUB_CACHE, else HF_HOME/hub), read now rather than when imported."""
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)


def _scan(cache_dir: Path | None) -> HFCacheInfo | None:
    """scan_cache_dir's report on the cache, or None where the cache folder does not exist (nothing downloaded)."""
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound

    try:
        return scan_cache_dir(cache_dir or hub_cache())
    except CacheNotFound:
        return None


def _revision(commit: str, refs: frozenset[str]) -> str:
    return commit[:7] + (f" ({', '.join(sorted(refs))})" if refs else "")


def downloaded_models(cache_dir: Path | None = None) -> list[DownloadedModel]:
    """The model repos in the cache (datasets and spaces left out), by id."""
    report = _scan(cache_dir)
    repos = [] if report is None else [repo for repo in report.repos if repo.repo_type == "model"]
    return [DownloadedModel(repo.repo_id, repo.size_on_disk, repo.last_accessed, repo.last_modified,
                            tuple(_revision(rev.commit_hash, rev.refs)
                                  for rev in sorted(repo.revisions, key=lambda rev: -rev.last_modified)))
            for repo in sorted(repos, key=lambda repo: repo.repo_id)]


def _repo(report: HFCacheInfo | None, repo_id: str, cache_dir: Path) -> CachedRepoInfo:
    found = None if report is None else next(
        (repo for repo in report.repos if repo.repo_type == "model" and repo.repo_id == repo_id), None)
    if found is None:
        raise DeletionRefused(f"'{repo_id}' is not in the Hugging Face cache at {cache_dir}, so there is nothing to "
                              "delete; `python -m core models --downloaded` lists what is there.")
    return found


def delete_downloaded(repo_id: str, cache_dir: Path | None = None) -> int:
    """Delete every revision of the model `repo_id` from the cache, as huggingface_hub's delete strategy does; the
    bytes freed. DeletionRefused says why not: deleting is switched off, the model is not in the cache, or this
    server holds it in memory."""
    if not load_config().allow_model_deletion:
        raise DeletionRefused(f"Deleting models is switched off on this server ({where_set('allow_model_deletion')}).")
    folder = cache_dir or hub_cache()
    report = _scan(folder)
    repo = _repo(report, repo_id, folder)
    assert report is not None, "_repo found the model in the report"
    if any(repo.repo_path.resolve() in loaded.parents for loaded in folders_in_memory()):
        raise DeletionRefused(f"'{repo_id}' is loaded on this server (a session's model, or one a page is using): "
                              "choose another model in the sidebar, or wait until no page uses it, then delete it.")
    # delete_revisions looks commits up in every repo of the report, and two repos can hold the same commit (a copy
    # of a repo keeps its history): the strategy is made from a report of this repo alone
    alone = dataclasses.replace(report, repos=frozenset({repo}))
    strategy = alone.delete_revisions(*(revision.commit_hash for revision in repo.revisions))
    strategy.execute()
    return strategy.expected_freed_size


def cached_origin(folder: Path, cache_dir: Path | None = None) -> tuple[str, str] | None:
    """The hub id and the commit whose snapshot in the cache `folder` is (as scan_cache_dir lists snapshots), or None
    for a folder from elsewhere (one outside the cache is not scanned for)."""
    wanted = folder.resolve()
    if (cache_dir or hub_cache()).resolve() not in wanted.parents:
        return None
    report = _scan(cache_dir)
    return None if report is None else next(
        ((repo.repo_id, revision.commit_hash) for repo in report.repos if repo.repo_type == "model"
         for revision in repo.revisions if revision.snapshot_path.resolve() == wanted), None)


def downloaded_table(models: list[DownloadedModel]) -> pd.DataFrame:
    """One row per model: its id, size on disk, when it was last used and last written, and its revisions."""
    return pd.DataFrame({
        "model": [model.repo_id for model in models],
        "size": [byte_size(model.size_on_disk) for model in models],
        "last used": pd.to_datetime([model.last_accessed for model in models], unit="s", utc=True),
        "downloaded or updated": pd.to_datetime([model.last_modified for model in models], unit="s", utc=True),
        "revisions": [", ".join(model.revisions) for model in models]})
