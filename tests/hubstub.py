"""A stub of the Hugging Face hub on loopback, for the refusals olah cannot play (gated and private repos, tokens): a
thread of http.server that answers each repo below as the hub does, with the status, the `X-Error-Code` and
`X-Error-Message` headers and the JSON error that huggingface_hub's hf_raise_for_status reads, and records every
request with its Authorization header."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GATED = "stub/gated"  # the hub refuses the model's metadata: gated (401 without a token, 403 with one)
GATED_FILES = "stub/gated-files"  # its metadata is public, its files gated: as the hub serves a gated model
MISSING = "stub/missing"  # no such repo, or a private one: the hub answers both alike (RepoNotFound)
FORBIDDEN = "stub/forbidden"  # a token without the right to read it (403, no error code)
PUBLIC = "stub/public"  # a public model with main alone: any other revision is missing (RevisionNotFound)
INVALID_TOKEN = "hf_stub_invalid"  # a token the hub does not know: 401 for any repo
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    authorization: str | None


@dataclass
class HubStub:
    url: str
    seen: list[Seen] = field(default_factory=list)

    def asked_for(self, repo: str) -> list[Seen]:
        return [request for request in self.seen if repo in request.path]


def _answer(path: str, token: str | None) -> tuple[int, dict[str, str], object]:
    """The status, headers and JSON body the hub gives for a request of `path` with `token` (or none)."""
    def refused(status: int, code: str | None, message: str) -> tuple[int, dict[str, str], object]:
        return status, {"X-Error-Message": message} | ({"X-Error-Code": code} if code else {}), {"error": message}

    gated = {f"/api/models/{GATED}/": GATED, f"/{GATED_FILES}/resolve/": GATED_FILES}
    if token == INVALID_TOKEN:
        return refused(401, None, "Invalid credentials in Authorization header")
    for prefix, repo in gated.items():
        if path.startswith(prefix) and token is None:
            return refused(401, "GatedRepo", f"Access to model {repo} is restricted. You must have access to it and "
                                             "be authenticated to access it. Please log in.")
        if path.startswith(prefix):
            return refused(403, "GatedRepo", f"Access to model {repo} is restricted and you are not in the "
                                             f"authorized list. Visit https://huggingface.co/{repo} to ask for access.")
    if path.startswith(f"/api/models/{GATED_FILES}/revision/"):
        return 200, {}, {"id": GATED_FILES, "modelId": GATED_FILES, "sha": COMMIT, "private": False,
                         "gated": "manual"}
    if path.startswith(f"/api/models/{GATED_FILES}/tree/"):
        return 200, {}, [{"type": "file", "oid": "0" * 40, "size": 2, "path": "config.json"}]
    if path.startswith(f"/api/models/{PUBLIC}/revision/"):
        revision = path.removeprefix(f"/api/models/{PUBLIC}/revision/").split("?")[0]
        return refused(404, "RevisionNotFound", f"Invalid rev id: {revision}")
    if path.startswith(f"/api/models/{FORBIDDEN}/"):
        return refused(403, None, "This request is not authorized by the token's permissions.")
    return refused(401 if token is None else 404, "RepoNotFound", "Repository not found")


@contextmanager
def hub_stub() -> Iterator[HubStub]:
    """The stub on a free loopback port until the block ends."""
    stub = HubStub("")

    class Handler(BaseHTTPRequestHandler):
        def _reply(self) -> None:
            authorization = self.headers.get("Authorization")
            stub.seen.append(Seen(self.command, self.path, authorization))
            token = authorization.removeprefix("Bearer ") if authorization else None
            status, headers, body = _answer(self.path, token)
            data = json.dumps(body).encode()
            self.send_response(status)
            for name, value in (headers | {"Content-Type": "application/json",
                                           "Content-Length": str(len(data))}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_HEAD = _reply

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
