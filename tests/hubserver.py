"""A real hub-protocol server on loopback for tests: olah (PyPI `olah`, a self-hosted Hugging Face mirror, installed in
its own virtual environment by `make hub-server`) serving local git repositories as hub model repos, offline: it never
asks huggingface.co for anything. A repo is a model folder committed on branch `main` (olah answers "Repository not
found" for a repo whose branch is `master`) under mirrors/models/ORG/NAME; a repo of several folders holds one commit
for each, in order, the last on main."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT
from tests.ports import free_port

OLAH = ROOT / ".venv-olah" / "bin" / "olah-cli"
REFUSED_ORG = "refused"  # olah's proxy rule refuses every repo of this owner, though it holds them


@dataclass(frozen=True)
class HubServer:
    url: str
    sources: Mapping[str, Path]  # hub id -> the folder its repo's main was committed from
    commits: Mapping[str, tuple[str, ...]]  # hub id -> its commits, oldest first (the last is main)


def commit_as_repo(sources: Sequence[Path], repo: Path) -> tuple[str, ...]:
    """Each of `sources`' files committed, one commit after another, as a git repository at `repo` on branch main
    (the files stay where they are: the repository holds them as git objects, which is all olah reads); the commits'
    hashes, oldest first."""
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    commits = []
    for number, source in enumerate(sources, 1):
        git = ["git", "-c", "user.name=tests", "-c", "user.email=tests@localhost", "-c", "core.compression=0",
               "-c", "commit.gpgsign=false", f"--git-dir={repo / '.git'}", f"--work-tree={source}"]
        subprocess.run([*git, "add", "-A"], check=True)
        date = f"2026-01-{number:02d}T00:00:00+00:00"
        subprocess.run([*git, "commit", "-q", "-m", f"model, version {number}"], check=True,
                       env=os.environ | {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
        commits.append(subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                                      text=True).stdout.strip())
    return tuple(commits)


def write_config(path: Path, port: int, mirrors: Path) -> None:
    netloc = f"127.0.0.1:{port}"
    path.write_text(f"""[basic]
host = "127.0.0.1"
port = {port}
mirror-netloc = "{netloc}"
mirror-lfs-netloc = "{netloc}"
repos-path = "{path.parent / 'repos'}"
mirrors-path = ["{mirrors}"]

[accessibility]
offline = true

[[accessibility.proxy]]
repo = "*/*"
allow = true

[[accessibility.proxy]]
repo = "{REFUSED_ORG}/*"
allow = false
""", encoding="utf-8")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def hub_server(root: Path, models: Mapping[str, Sequence[Path]]) -> Iterator[HubServer]:
    """olah serving each hub id of `models` (ORG/NAME -> its model folders, one commit each) from git repositories
    under `root`, until the block ends; it has answered the first model's metadata when the block starts."""
    mirrors = root / "mirrors"
    commits = {repo_id: commit_as_repo(sources, mirrors / "models" / repo_id) for repo_id, sources in models.items()}
    port = free_port()
    write_config(root / "olah.toml", port, mirrors)
    url = f"http://127.0.0.1:{port}"
    with open(root / "olah.log", "wb") as log:
        server = subprocess.Popen([str(OLAH), "-c", str(root / "olah.toml")], cwd=root, stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        probe = f"{url}/api/models/{next(iter(models))}/revision/main"
        deadline = time.monotonic() + 60
        while not _answers(probe):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"olah did not answer {probe}: {(root / 'olah.log').read_text()[-2000:]}")
            time.sleep(0.2)
        yield HubServer(url, {repo_id: sources[-1] for repo_id, sources in models.items()}, commits)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def hub_env(endpoint: str, hf_home: Path, **variables: str) -> dict[str, str]:
    """This process's environment for a subprocess that reaches the hub at `endpoint` (loopback) with a fresh
    `hf_home`: offline mode off, no token, no proxy (a proxy could carry a loopback request off the machine), and
    `variables` on top."""
    dropped = {"HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_TOKEN", "HF_HUB_CACHE", "HF_HUB_ETAG_TIMEOUT"}
    env = {key: value for key, value in os.environ.items()
           if key not in dropped and not key.lower().endswith("_proxy")}
    return env | {"HF_ENDPOINT": endpoint, "HF_HOME": str(hf_home), "NO_PROXY": "*"} | variables
