"""A real hub-protocol server on loopback for tests: olah (PyPI `olah`, a self-hosted Hugging Face mirror, installed in
its own virtual environment by `make hub-server`) serving local git repositories as hub model repos, offline: it never
asks huggingface.co for anything. A repo is a model folder committed on branch `main` (olah answers "Repository not
found" for a repo whose branch is `master`) under mirrors/models/ORG/NAME; a repo of several folders holds one commit
for each, in order, the last on main."""

from __future__ import annotations

import http.client
import os
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

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


HELD_AFTER = 1_000_000  # bytes of a body that pass before a held gate slows it to a trickle
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "host", "proxy-connection", "upgrade", "te"}


class HubGate:
    """A loopback HTTP proxy in front of a hub server (`url` is its address, the app's HF_ENDPOINT): it passes every
    request on and every answer back (a redirect to the hub made a redirect to itself). While it is held, each body
    stops after its first HELD_AFTER bytes and trickles on a byte a second (so the client's read timeout never
    fires) until it is let go: a download stays under way, with its progress and its Cancel, for as long as a test
    needs, as a held job does in the AppTest tests."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self._open = threading.Event()
        self._open.set()
        forward = self._forward

        class Forward(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                forward(self)

            do_HEAD = do_GET

            def log_message(self, format: str, *args: object) -> None:  # quiet
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:  # a client gone (a cancelled download)
                pass

        self._server = Server(("127.0.0.1", 0), Forward)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def hold(self) -> None:
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def serve(self) -> threading.Thread:
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()

    def _forward(self, handler: BaseHTTPRequestHandler) -> None:
        target = urlsplit(self.upstream)
        upstream = http.client.HTTPConnection(target.hostname or "", target.port, timeout=120)
        try:
            headers = {key: value for key, value in handler.headers.items() if key.lower() not in HOP_HEADERS}
            upstream.request(handler.command, handler.path, headers=headers)
            answer = upstream.getresponse()
            handler.send_response_only(answer.status, answer.reason)
            for key, value in answer.getheaders():
                if key.lower() not in HOP_HEADERS:
                    handler.send_header(key, value.replace(self.upstream, self.url) if key.lower() == "location"
                                        else value)
            chunked = answer.getheader("content-length") is None and handler.command != "HEAD"
            if chunked:
                handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()

            def send(data: bytes) -> None:
                handler.wfile.write(b"%x\r\n%b\r\n" % (len(data), data) if chunked else data)
                handler.wfile.flush()

            sent = 0
            while handler.command != "HEAD" and (part := answer.read1(65536)):
                while part and sent >= HELD_AFTER and not self._open.wait(1):
                    send(part[:1])
                    part, sent = part[1:], sent + 1
                if part:
                    send(part)
                    sent += len(part)
            if chunked:
                send(b"")
        finally:
            upstream.close()


@contextmanager
def hub_gate(upstream: str) -> Iterator[HubGate]:
    """A HubGate in front of the hub server at `upstream`, open, until the block ends."""
    gate = HubGate(upstream)
    gate.serve()
    try:
        yield gate
    finally:
        gate.close()
