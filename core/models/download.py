"""A hub model's download, as huggingface_hub does it, with its size known first and its progress counted.

The size is the hub's file list at the model's current commit (HfApi.list_repo_tree, the listing snapshot_download
itself reads), filtered by the same allow_patterns the download uses. The files then come down with snapshot_download
into huggingface_hub's cache; its progress bar class (`tqdm_class`) is one that counts the bytes written to disk, over
all files together, and reports them. A report can end the download (a cancelled job raises from it).

What stays behind when a download stops early never loads: huggingface_hub writes each file to a temporary
`.incomplete` file, deleted if the download stops, and moves it into the cache only once whole; and it records the
commit's file list (trees/<commit>.json) before fetching any file, so snapshot_download(local_files_only=True), the
cache look-up of core.models.hub, refuses a snapshot that lacks one of the files loading reads
(IncompleteSnapshotError). The next download fetches only the files that are missing. The model card comes down too,
but a snapshot without it loads (a model downloaded before the card was fetched stays in the cache as it is)."""

from __future__ import annotations

import posixpath
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.jobs import DOWNLOADS, Job, Progress
from core.models.catalog import ModelUnavailable
from core.models.remote_code import refuse_own_code_before_download

if TYPE_CHECKING:
    from huggingface_hub.errors import HfHubHTTPError

# what loading reads: configs, tokenizer files, safetensors weights, a Pooling or Dense module's folder, a Stanford
# ColBERT checkpoint's artifact.metadata (its query and document markers and lengths); a snapshot that holds these loads
# (the cache look-up asks for these alone, so a model downloaded without its card still loads)
LOADED_FILES = ["*.json", "*.txt", "*.safetensors", "*.model", "1_*/*", "artifact.metadata"]
CARD_FILE = "README.md"  # the model card (huggingface_hub's REPOCARD_NAME): its front matter is what the hub shows
DOWNLOADED_FILES = [*LOADED_FILES, CARD_FILE]
# A folder's weights as a pickle, fetched and read only where the folder holds no safetensors file: a checkpoint
# published so alone, as sentence-transformers/clip-ViT-B-32's 0_CLIPModel (its CLIPModel module's layout).
# transformers reads it with torch.load(weights_only=True), which rebuilds tensors and runs none of the file's code.
PICKLED_WEIGHTS = "pytorch_model.bin"
BYTES_BAR = "huggingface_hub.snapshot_download"  # the name of snapshot_download's bar of bytes written to disk


def pickled_weights(paths: Iterable[str]) -> list[str]:
    """The repo's files (`paths`) that are a folder's only weights in a pickle (PICKLED_WEIGHTS)."""
    paths = list(paths)
    safe = {posixpath.dirname(path) for path in paths if path.endswith(".safetensors")}
    return [path for path in paths
            if posixpath.basename(path) == PICKLED_WEIGHTS and posixpath.dirname(path) not in safe]


def loaded_patterns(paths: Iterable[str]) -> list[str]:
    """What loading a repo holding `paths` reads: LOADED_FILES, and its pickled-only weights."""
    return [*LOADED_FILES, *pickled_weights(paths)]


def downloaded_patterns(paths: Iterable[str]) -> list[str]:
    """What a download of a repo holding `paths` fetches: what loading reads, and the card."""
    return [*loaded_patterns(paths), CARD_FILE]


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
    patterns = downloaded_patterns(item.path for item in files)
    wanted = filter_repo_objects(files, allow_patterns=patterns, key=lambda item: item.path)
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
        return Path(snapshot_download(plan.repo, revision=plan.revision, allow_patterns=downloaded_patterns(plan.sizes),
                                      tqdm_class=_counting_bar(tally.add)))
    except Exception as err:  # the hub and its transport raise many exception types; each is said as one sentence
        raise ModelUnavailable(failure_sentence(plan.repo, err, plan.revision)) from err


def download(repo: str, progress: Progress | None = None, revision: str | None = None) -> Path:
    """The model's files at `revision` (main by default) from the hub into its cache, its folder there;
    ModelUnavailable says why not in one sentence naming `repo` (and the revision asked for)."""
    try:
        plan = plan_download(repo, revision)
    except Exception as err:  # as in fetch
        missing = revision is not None and _revision_missing(repo, err)
        raise ModelUnavailable(revision_sentence(repo, str(revision)) if missing
                               else failure_sentence(repo, err, revision)) from err
    refuse_own_code_before_download(plan)
    return fetch(plan, progress or (lambda done, total: None))


def download_job(repo: str) -> Job:
    """The download of `repo` in the server's queue of downloads: one job, whoever asks for it while it is queued
    or running (cancelled or failed, the next request starts it again)."""
    return DOWNLOADS.submit(("download", repo), f"Downloading {repo}", lambda progress: download(repo, progress))


def _revision_missing(repo: str, err: Exception) -> bool:
    """Whether `err`, the answer to a revision of `repo`, means that the revision is missing while the hub does not
    say so: it says that the repository is missing while it answers for its main (as olah, a hub mirror, does for a
    revision it lacks; the hub itself raises RevisionNotFoundError, which failure_sentence says)."""
    from huggingface_hub import HfApi, constants
    from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

    if not isinstance(err, RepositoryNotFoundError) or isinstance(err, GatedRepoError):
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


def _hub_answer(err: BaseException) -> HfHubHTTPError | None:
    """The hub's HTTP answer behind `err`: itself, or what caused it (huggingface_hub raises some refusals of a
    file as a LocalEntryNotFoundError caused by the hub's answer)."""
    from huggingface_hub.errors import HfHubHTTPError

    cause: BaseException | None = err
    while cause is not None and not isinstance(cause, HfHubHTTPError):
        cause = cause.__cause__ or cause.__context__
    return cause


def failure_sentence(repo: str, err: Exception, revision: str | None = None) -> str:
    """Why `repo` (at `revision`, main by default) could not be downloaded, in one sentence naming it and the way
    forward, from huggingface_hub's reading of the hub's answer (hf_raise_for_status): a gated repo
    (GatedRepoError), a missing or private one (RepositoryNotFoundError: the hub answers both alike), a missing
    revision (RevisionNotFoundError), a token refused as invalid (HTTP 401) or without the right (HTTP 403), another
    HTTP status, or no answer. The token is the one huggingface_hub sends itself: HF_TOKEN, else the saved login."""
    from huggingface_hub import constants, get_token
    from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError, RevisionNotFoundError

    hub, answer, token = f"the hub at {constants.ENDPOINT}", _hub_answer(err), get_token()
    status = answer.response.status_code if answer is not None and answer.response is not None else None
    in_use = "the token in use (HF_TOKEN, else the saved login)"
    if isinstance(answer, GatedRepoError):
        return (f"'{repo}' is gated on {hub}: accept its terms on its page, {constants.ENDPOINT}/{repo}, signed in "
                "(its authors may have to approve the request), then set HF_TOKEN to a token of that account (or run "
                "`hf auth login`).")
    if isinstance(answer, RevisionNotFoundError):
        return revision_sentence(repo, revision or constants.DEFAULT_REVISION)
    if isinstance(answer, RepositoryNotFoundError):
        private = ("set HF_TOKEN to a token of an account that may read it (or run `hf auth login`)" if token is None
                   else f"{in_use} may not read it: set HF_TOKEN to a token of an account that may")
        return (f"'{repo}' was not found on {hub}, or it is private: check the id (owner/name, as on its hub page); "
                f"if it is private, {private}.")
    if status == 401 and token is not None:
        return (f"The hub at {constants.ENDPOINT} refused {in_use} as invalid when asked for '{repo}': set HF_TOKEN "
                f"to a valid token ({constants.ENDPOINT}/settings/tokens), or unset it for a public model.")
    if status in (401, 403):
        held = f"to {in_use}" if token is not None else "without a token"
        return (f"The hub at {constants.ENDPOINT} refused '{repo}' {held} (HTTP {status}): set HF_TOKEN to a token "
                "of an account allowed to read it (a fine-grained token names the repos it may read).")
    if status is not None:
        return (f"The hub at {constants.ENDPOINT} answered '{repo}' with HTTP {status}; try again later, or choose a "
                "model that is already here.")
    return (f"Could not download '{repo}' from {hub} ({type(err).__name__}); check the network, or choose a model "
            "that is already here.")
