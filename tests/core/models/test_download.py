"""A hub model's download as a job, against olah on loopback (tests/hubserver.py): its size known before it starts,
its progress to the last byte, one job for two requests, cancel, and the command line's progress line. Each runs in
a subprocess with the server's address and a fresh cache (see tests/core/models/test_hub.py)."""

from __future__ import annotations

import filecmp
import fnmatch
import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.models.download import CARD_FILE, DOWNLOADED_FILES
from tests.conftest import LARGE_PADDING_BYTES, ROOT
from tests.hubserver import hub_env

pytestmark = pytest.mark.slow

LARGE = "explorer-tests/tiny-st-large"


def watched(env: dict[str, str], *flags: str) -> dict:
    """tests/hubdownload.py's account of one download of LARGE."""
    done = subprocess.run([sys.executable, "-m", "tests.hubdownload", LARGE, *flags], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def wanted_sizes(source: Path) -> dict[str, int]:
    """The folder's files that the download fetches (its patterns, fnmatch as huggingface_hub applies them)."""
    files = {path.relative_to(source).as_posix(): path.stat().st_size for path in source.rglob("*") if path.is_file()}
    return {name: size for name, size in files.items() if any(fnmatch.fnmatch(name, rule) for rule in DOWNLOADED_FILES)}


def test_the_size_is_known_before_the_download_and_progress_reaches_it_in_one_job_for_two_requests(hub, tmp_path):
    source = hub.sources[LARGE]
    account = watched(hub_env(hub.url, tmp_path))
    assert account["sizes"] == wanted_sizes(source)
    assert {"padding.safetensors", CARD_FILE} <= set(account["sizes"])  # the card comes down with the weights
    assert account["total"] > LARGE_PADDING_BYTES
    assert account["shared"] and account["state"] == "done", account["error"]
    sized = [tuple(pair) for pair in account["seen"] if pair[1]]  # before the job starts, it knows no total
    assert sized[0] == (0, account["total"])  # the size, before the first byte
    assert {total for _, total in sized} == {account["total"]}
    assert account["done"] == account["total"]
    assert any(0 < done < account["total"] for done, _ in account["seen"])  # bytes as they come, not all at once
    folder = Path(account["folder"])
    assert account["result"] == str(folder)
    assert filecmp.cmp(folder / "padding.safetensors", source / "padding.safetensors", shallow=False)


def test_a_cancelled_download_stops_leaves_nothing_that_loads_and_the_next_one_completes(hub, tmp_path):
    env = hub_env(hub.url, tmp_path)
    cancelled = watched(env, "--cancel")
    assert cancelled["state"] == "cancelled" and 0 < cancelled["done"] < cancelled["total"]
    assert cancelled["folder"] is None  # the cache gives no folder for the incomplete snapshot
    stored = tmp_path / "hub" / f"models--{LARGE.replace('/', '--')}"
    assert not list(stored.glob("snapshots/*/padding.safetensors")) and not list(stored.rglob("*.incomplete"))

    offline = subprocess.run([sys.executable, "-m", "tests.hubclient", LARGE], cwd=ROOT, capture_output=True,
                             text=True, timeout=120, env=env | {"HF_HUB_OFFLINE": "1"})
    assert json.loads(offline.stdout)["message"].startswith(f"'{LARGE}' is not in the local Hugging Face cache")

    again = watched(env)
    assert again["state"] == "done" and again["done"] == again["total"] and again["folder"] is not None
    assert filecmp.cmp(Path(again["folder"]) / "padding.safetensors", hub.sources[LARGE] / "padding.safetensors",
                       shallow=False)


def test_the_command_line_says_the_download_on_a_progress_line(hub, tmp_path):
    (tmp_path / "in.txt").write_text("one text\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "core", "embed", "--model", LARGE, "--pooling", "default",
                           "--input", str(tmp_path / "in.txt"), "--output", str(tmp_path / "out.npy")],
                          cwd=ROOT, env=hub_env(hub.url, tmp_path / "hf-home"), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"Downloading {LARGE}: ")]
    total = lines[0].split(" / ")[1]  # not a terminal: the first line, at most one each 10 s, and the last
    assert lines[0] == f"Downloading {LARGE}: 0 B / {total}" and total.endswith(" MB")
    assert lines[-1].startswith(f"Downloading {LARGE}: {total} / {total} · ") and lines[-1].endswith("MB/s")
