"""Ctrl-C on `core embed --engine ray` once Ray runs: between two batches (Ray's actors still at work on the rest) and
inside `ray.shutdown` after the last batch (the window the lost Ctrl-C of #45 lived in), each once and twice. The
command runs as its own process, starting Ray inside itself as it does without --address, through
tests/core/scale/interrupted_run.py, whose hook says where the run is so that the signal comes there and not at a
time. Whatever the point, the command exits 130, every folder it leaves holds its input file's rows in full, read
back file by file and equal to sentence-transformers' own vectors, nothing half-written or temporary is left, and
the Ray processes it started are gone. The Ctrl-C before Ray starts is tested in test_ray_embed.py."""

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import psutil
import pyarrow.parquet as pq
import pytest

from core.cli.ctrl_c import ASKED
from core.data.stsb import stsb_corpus
from tests.core.scale.interrupted_run import HELD, SHUT, SHUTTING, watch_children
from tests.extras import extra_module

extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]
ROOT = Path(__file__).resolve().parents[3]
SIZES = {"a": 50, "b": 500, "c": 500, "d": 500}  # a first batch (about 512 rows) holds a whole, and never d
LISTED = re.compile(r"\[(\d+)/4\] (.+): (\d+) texts → (.+)\n")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, dict[str, list[str]]]:
    """STS-B sentences split into SIZES' .txt files, and each file's lines."""
    folder = tmp_path_factory.mktemp("ctrl-c-inputs")
    texts, start, lines = list(stsb_corpus()), 0, {}
    for name, size in SIZES.items():
        lines[name] = texts[start:start + size]
        (folder / f"{name}.txt").write_text("\n".join(lines[name]) + "\n", encoding="utf-8")
        start += size
    return folder, lines


def interrupted(point: str, signals: int, model: Path, inputs: Path, out: Path) -> tuple[int, list[str], dict]:
    """Run the command with the hook at `point`, send Ctrl-C when the hook says the run is there and, for two,
    again once the command has said it heard the first; its exit status, its stderr's lines, and every process it
    started with its command line."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env["RAY_AUTH_TOKEN"] = os.environ["RAY_AUTH_TOKEN"]  # as tests/conftest.py set it: never a file in ~/.ray
    run = subprocess.Popen([sys.executable, "-m", "tests.core.scale.interrupted_run", point, str(signals),
                            "embed", "--engine", "ray", "--workers", "1", "--model", str(model), "--pooling", "default",
                            "--input", str(inputs / "*.txt"), "--output", str(out)],
                           cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    started: dict[psutil.Process, str] = {}
    watcher = threading.Thread(target=watch_children, args=(run, started))
    watcher.start()
    said: list[str] = []
    sent = 0
    try:
        assert run.stderr is not None
        for line in run.stderr:
            said.append(line)
            if (line in (HELD, SHUTTING) and sent == 0) or (line == ASKED and sent < signals):
                run.send_signal(signal.SIGINT)  # what Ctrl-C sends
                sent += 1
        status = run.wait(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
        watcher.join()
    assert sent == signals, "".join(said)[-3000:]
    return status, said, started


def check_whole(out: Path, said: list[str], lines: dict[str, list[str]], model: Path) -> list[str]:
    """The folders the run left: each listed by the command with its input's count of texts, each Parquet file in
    it read on its own, their rows together the input's lines in order with sentence-transformers' vectors of them;
    no other file or folder (no _partial, no half-written or temporary file)."""
    from sentence_transformers import SentenceTransformer

    listed = {Path(match[4]).name: int(match[3]) for line in said if (match := LISTED.fullmatch(line))}
    finished = sorted(path.name for path in out.iterdir() if path.name != "_embedding.json")
    assert finished == sorted(listed), "".join(said)[-3000:]
    reference = SentenceTransformer(str(model), device="cpu", local_files_only=True)
    for name in finished:
        parts = sorted((out / name).iterdir())
        assert parts and all(part.suffix == ".parquet" and part.is_file() for part in parts), parts
        tables = [pq.read_table(part) for part in parts]  # each file whole: its footer and every page read
        texts = [text for table in tables for text in table.column("text").to_pylist()]
        assert listed[name] == len(texts) == SIZES[name] and texts == lines[name]
        vectors = np.asarray([vector for table in tables for vector in table.column("vector").to_pylist()],
                             np.float32)
        np.testing.assert_allclose(vectors, reference.encode(texts, batch_size=64), atol=1e-5)
    return finished


def check_ray_stopped(started: dict[psutil.Process, str]) -> None:
    assert any("MapWorker" in command for command in started.values()), "no actor ever ran"
    gone, alive = psutil.wait_procs(list(started), timeout=30)
    assert not alive, f"still running after Ctrl-C: {[started[process] for process in alive]}"


def test_ctrl_c_between_batches_stops_there_with_whole_folders(inputs, tiny_sentence_transformer_folder, tmp_path):
    """Ctrl-C once the first batch is written, the others still coming: the run stops at its next safe point; the
    files that batch completed stay, nothing after it is written. (A second Ctrl-C is the shutdown test's: each Ray
    start costs half a minute of CI.)"""
    folder, lines = inputs
    status, said, started = interrupted("between-batches", 1, tiny_sentence_transformer_folder, folder,
                                        tmp_path / "out")
    assert status == 130, "".join(said)[-3000:]
    assert any(line.startswith("Interrupted: the files listed above are complete") for line in said)
    finished = check_whole(tmp_path / "out", said, lines, tiny_sentence_transformer_folder)
    assert "a" in finished and "d" not in finished
    after = said[said.index(HELD):]
    assert not any(LISTED.fullmatch(line) for line in after), "a file was finished after Ctrl-C"
    check_ray_stopped(started)


@pytest.mark.parametrize("signals", [1, 2], ids=["once", "twice"])
def test_ctrl_c_inside_ray_shutdown_exits_130_with_every_folder_whole(signals, inputs,
                                                                      tiny_sentence_transformer_folder, tmp_path):
    """Ctrl-C after the last batch, while `ray.shutdown` runs: still 130 (a Ctrl-C there was once lost, the command
    exiting 0), every file complete, Ray stopped, also when a second Ctrl-C cuts the shutdown short."""
    folder, lines = inputs
    status, said, started = interrupted("shutdown", signals, tiny_sentence_transformer_folder, folder,
                                        tmp_path / "out")
    assert status == 130, "".join(said)[-3000:]
    assert any(line.startswith("Interrupted: the files listed above are complete") for line in said)
    assert check_whole(tmp_path / "out", said, lines, tiny_sentence_transformer_folder) == sorted(SIZES)
    if signals == 1:  # heard inside ray.shutdown, which went on to its end
        assert said.index(SHUTTING) < said.index(ASKED) < said.index(SHUT), "".join(said)[-3000:]
    else:  # the second raised inside it
        assert said.index(SHUTTING) < said.index(ASKED) and SHUT not in said, "".join(said)[-3000:]
    check_ray_stopped(started)
