"""A hub model's download, as huggingface_hub does it, with its size known first and its progress counted.

The size is the hub's file list at the model's current commit (HfApi.list_repo_tree, the listing snapshot_download
itself reads), filtered by the same allow_patterns the download uses. The files then come down with snapshot_download
into huggingface_hub's cache; its progress bar class (`tqdm_class`) is one that counts the bytes written to disk, over
all files together, and reports them. A report can end the download (a cancelled job raises from it).

What stays behind when a download stops early never loads: huggingface_hub writes each file to a temporary
`.incomplete` file, deleted if the download stops, and moves it into the cache only once whole; and it records the
commit's file list (trees/<commit>.json) before fetching any file, so snapshot_download(local_files_only=True), the
cache look-up of core.models.hub, refuses a snapshot that lacks one of the wanted files (IncompleteSnapshotError).
The next download fetches only the files that are missing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.jobs import DOWNLOADS, Job, Progress
from core.models.catalog import ModelUnavailable
from core.models.remote_code import refuse_own_code_before_download

# what loading reads: configs, tokenizer files, safetensors weights, a Pooling or Dense module's folder
WANTED_FILES = ["*.json", "*.txt", "*.safetensors", "*.model", "1_*/*"]
BYTES_BAR = "huggingface_hub.snapshot_download"  # the name of snapshot_download's bar of bytes written to disk


@dataclass(frozen=True)
class DownloadPlan:
    repo: str
    revision: str  # as asked for: a branch (main unless another is named), a tag or a commit
    commit: str  # the commit it names now
    sizes: dict[str, int]  # each wanted file's path in the repo -> its size in bytes

    @property
    def total(self) -> int:
        return sum(self.sizes.values())


def plan_download(repo: str, revision: str | None = None) -> DownloadPlan:
    """The files a download of `repo` at `revision` (main by default) fetches, and their sizes. The model's metadata
    is asked for first, with huggingface_hub's metadata timeout (HF_HUB_ETAG_TIMEOUT, 10 s by default): the listing
    and snapshot_download ask with none, so a network that swallows packets would hang them."""
    from huggingface_hub import HfApi, RepoFile, constants
    from huggingface_hub.utils import filter_repo_objects

    api, asked = HfApi(), revision or constants.DEFAULT_REVISION
    commit = api.model_info(repo, revision=asked, timeout=constants.HF_HUB_ETAG_TIMEOUT).sha
    assert commit is not None, "the hub names the commit of every model it answers for"
    files = [item for item in api.list_repo_tree(repo, recursive=True, revision=commit) if isinstance(item, RepoFile)]
    wanted = filter_repo_objects(files, allow_patterns=WANTED_FILES, key=lambda item: item.path)
    return DownloadPlan(repo, asked, commit, {item.path: item.size for item in wanted})


def bytes_here(plan: DownloadPlan) -> int:
    """The bytes of the plan's files that are in the cache already (from a download that stopped early)."""
    from huggingface_hub import try_to_load_from_cache

    return sum(size for path, size in plan.sizes.items()
               if isinstance(try_to_load_from_cache(plan.repo, path, revision=plan.commit), str))


class _Tally:
    """Bytes done of a plan's total, added to from snapshot_download's threads, each sum reported."""

    def __init__(self, done: int, total: int, progress: Progress) -> None:
        self.done, self.total, self.progress = done, total, progress
        self._lock = threading.Lock()

    def add(self, count: int) -> None:
        with self._lock:
            self.done += count
            done = self.done
        self.progress(min(done, self.total), self.total)


def _counting_bar(count: Callable[[int], None]) -> type:
    """A progress bar class for snapshot_download's `tqdm_class`: never drawn; its bar of bytes written to disk
    (BYTES_BAR, every file's bytes together) passes each update to `count`."""
    from huggingface_hub.utils import tqdm

    class CountingBar(tqdm):
        def __init__(self, *args: Any, name: str | None = None, **kwargs: Any) -> None:
            self.counts = name == BYTES_BAR
            super().__init__(*args, **(kwargs | {"disable": True}))

        def update(self, n: float | None = 1) -> bool | None:
            if self.counts and n:
                count(int(n))
            return super().update(n)

    return CountingBar


def fetch(plan: DownloadPlan, progress: Progress) -> Path:
    """The plan's files into huggingface_hub's cache, `progress(bytes done, bytes in all)` as they come; the
    snapshot's folder. What fails is said in one sentence naming the model (a JobCancelled from `progress` is no
    failure, and passes)."""
    from huggingface_hub import snapshot_download

    tally = _Tally(bytes_here(plan), plan.total, progress)
    progress(tally.done, tally.total)
    try:  # the revision as asked, not the plan's commit, so that huggingface_hub records which commit a branch is
        return Path(snapshot_download(plan.repo, revision=plan.revision, allow_patterns=WANTED_FILES,
                                      tqdm_class=_counting_bar(tally.add)))
    except Exception as err:  # the hub and its transport raise many kinds; each is said as one sentence
        raise ModelUnavailable(failure_sentence(plan.repo, err)) from err


def download(repo: str, progress: Progress | None = None, revision: str | None = None) -> Path:
    """The model's files at `revision` (main by default) from the hub into its cache, its folder there;
    ModelUnavailable says why not in one sentence naming `repo` (and the revision asked for)."""
    try:
        plan = plan_download(repo, revision)
    except Exception as err:  # as in fetch
        missing = revision is not None and _revision_missing(repo, err)
        raise ModelUnavailable(revision_sentence(repo, str(revision)) if missing else failure_sentence(repo, err)) \
            from err
    refuse_own_code_before_download(plan)
    return fetch(plan, progress or (lambda done, total: None))


def download_job(repo: str) -> Job:
    """The download of `repo` in the server's queue of downloads: one job, whoever asks for it while it is queued
    or running (cancelled or failed, the next request starts it again)."""
    return DOWNLOADS.submit(("download", repo), f"Downloading {repo}", lambda progress: download(repo, progress))


def _revision_missing(repo: str, err: Exception) -> bool:
    """Whether `err`, the answer to a revision of `repo`, means that the revision is missing: the hub says so
    (RevisionNotFoundError), or says that the repository is missing while it answers for its main (as olah, a hub
    mirror, does for a revision it lacks)."""
    from huggingface_hub import HfApi, constants
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    if isinstance(err, RevisionNotFoundError):
        return True
    if not isinstance(err, RepositoryNotFoundError):
        return False
    try:
        HfApi().model_info(repo, revision=constants.DEFAULT_REVISION, timeout=constants.HF_HUB_ETAG_TIMEOUT)
    except Exception:  # missing, or unreachable now: the first answer stands
        return False
    return True


def revision_sentence(repo: str, revision: str) -> str:
    from huggingface_hub import constants

    return (f"'{repo}' has no revision '{revision}' on the hub at {constants.ENDPOINT}: give a branch, tag or commit "
            "of it (its hub page lists them), or leave the revision out for main.")


def failure_sentence(repo: str, err: Exception) -> str:
    from huggingface_hub import constants
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, RepositoryNotFoundError

    hub = f"the hub at {constants.ENDPOINT}"
    if isinstance(err, GatedRepoError):
        return (f"'{repo}' is gated on {hub}: accept its terms on {constants.ENDPOINT}/{repo} while signed in, then "
                "set HF_TOKEN to a token of that account.")
    if isinstance(err, RepositoryNotFoundError):
        return (f"'{repo}' was not found on {hub}, or it is private or gated: check the id (owner/name, as on its "
                "hub page), or for a private or gated model set HF_TOKEN to a token that may read it.")
    if isinstance(err, HfHubHTTPError) and err.response is not None:
        return (f"{hub} answered '{repo}' with HTTP {err.response.status_code}; try again later, or choose a model "
                "that is already here.")
    return (f"Could not download '{repo}' from {hub} ({type(err).__name__}); check the network, or choose a model "
            "that is already here.")
