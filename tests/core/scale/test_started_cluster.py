"""`core embed --engine ray --address` on clusters started with `ray start` as the README says: a head and a second
node on this machine (the CLI runs two nodes on one host when each has its own ports), with token authentication on
as Ray 2.60 starts it, and a head with it off. Everything runs in its own processes with a temporary HOME (so the
token Ray makes and reads is the test's own), its own temporary folder (--temp-dir) and free ports, so it cannot meet
another Ray on this machine. Each node runs `ray start … --block` and is stopped by ending that process, without
Ray's 30 s drain: `ray stop` would stop every Ray on the machine."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psutil
import pyarrow.dataset as pads
import pytest

from core.cli import main
from core.data.stsb import stsb_corpus
from tests.extras import extra_module
from tests.ports import free_port

extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]

RAY = str(Path(sys.executable).with_name("ray"))
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def embed(tiny_sentence_transformer_folder) -> list[str]:
    """The command a user runs against the cluster, with the tiny model (the packaged MiniLM's exactness on Ray is
    test_ray_embed.py's): what is tested here is the cluster's part."""
    return [sys.executable, "-m", "core", "embed", "--engine", "ray", "--model", str(tiny_sentence_transformer_folder),
            "--pooling", "default"]


# What the test asks Ray itself, in a process of its own: the live nodes and every actor with its node and state
STATE = """
import json, sys
import ray
from ray._private import state
ray.init(address=sys.argv[1], logging_level="ERROR")
print(json.dumps({"nodes": [node["NodeID"] for node in ray.nodes() if node["Alive"]],
                  "actors": [{"class": actor["ActorClassName"], "node": actor["Address"]["NodeID"],
                              "state": actor["State"], "job": actor["JobID"]} for actor in state.actors().values()]}))
"""


@dataclass
class StartedCluster:
    address: str
    home: Path  # holds .ray/auth_token when token authentication is on
    env: dict[str, str]  # what a user's shell on this machine has: that HOME, no RAY_* settings
    nodes: list[subprocess.Popen]
    folder: Path  # Ray's --temp-dir and the nodes' logs

    def state(self, mode: str = "token") -> dict:
        out = subprocess.run([sys.executable, "-c", STATE, self.address], env={**self.env, "RAY_AUTH_MODE": mode},
                             capture_output=True, text=True, timeout=120, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    def embedders(self) -> list[dict]:
        return [actor for actor in self.state()["actors"] if "Embedder" in actor["class"]]


def node_command(folder: Path, *args: str) -> list[str]:
    """`ray start` with the README's arguments, plus the ports and folder that keep this node to itself."""
    return [RAY, "start", *args, "--node-ip-address", "127.0.0.1", "--temp-dir", str(folder),
            "--dashboard-agent-listen-port", str(free_port()), "--block"]


def user_env(home: Path) -> dict[str, str]:
    """This process's environment as a user's shell has it: no RAY_* setting, and `home` as HOME."""
    return {key: value for key, value in os.environ.items() if not key.startswith("RAY_")} | {"HOME": str(home)}


def started(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    env = {**env, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}  # stopped at once when its test ends
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(nodes: list[subprocess.Popen], folder: Path) -> None:
    """End each `ray start --block`, the last started first (it stops its node's processes), then any process still
    naming the folder."""
    for node in reversed(nodes):
        if node.poll() is None:
            node.send_signal(signal.SIGTERM)
        try:
            node.wait(timeout=30)
        except subprocess.TimeoutExpired:
            node.kill()
    for process in psutil.process_iter(["pid", "cmdline"]):
        if str(folder) in " ".join(process.info["cmdline"] or []):
            process.kill()


def wait_for(check, seconds: float, what: str, nodes: list[subprocess.Popen], logs: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and all(node.poll() is None for node in nodes):
        try:
            if check():
                return
        except (subprocess.SubprocessError, IndexError, ValueError):
            pass
        time.sleep(1)
    raise AssertionError(f"{what} within {seconds:.0f} s; the nodes said:\n"
                         + "\n".join(log.read_text()[-2000:] for log in sorted(logs.glob("node-*.log"))))


def start_node(command: list[str], env: dict[str, str], ready, nodes: list[subprocess.Popen], folder: Path, *,
               head: bool) -> None:
    """`ray start` (the head, or a node joining it) until `ready()`, started once more where Ray's own wait for its
    raylet ran out: Ray 2.60 fixes it at 30 s (node.py), which a loaded two-core machine can pass ("The current node
    timed out during startup": the head in one of two full runs here on 12-02, the second node in the next).
    Anything else fails at once."""
    log = folder / ("node-head.log" if head else "node-second.log")
    for attempt in (1, 2):
        nodes.append(started(command, env, log))
        try:
            wait_for(ready, 60, "the head did not start" if head else "the second node did not join", nodes, folder)
            return
        except AssertionError:
            if attempt == 2 or nodes[-1].poll() is None or "timed out during startup" not in log.read_text():
                raise
            failed = nodes.pop()
            if head:
                stop([failed], folder)  # the head's processes, every one naming the folder
            else:
                failed.wait()  # exited: the head and its processes stay


@pytest.fixture(scope="module")
def token_cluster() -> Iterator[StartedCluster]:
    """The README's first two commands: `ray get-auth-token --generate` and `ray start --head` on the head, then
    RAY_AUTH_MODE=token with the same token on the second node. The head has 3 CPUs and the second node 2, so two
    actors of 2 CPUs each can only run one on each node (the head's third CPU reads)."""
    folder = Path(tempfile.mkdtemp(prefix="rt-", dir="/tmp"))  # short: Ray's socket paths live under it
    home = folder / "home"
    home.mkdir()
    env = user_env(home)
    port = free_port()
    nodes: list[subprocess.Popen] = []
    cluster = StartedCluster(f"127.0.0.1:{port}", home, env, nodes, folder)
    try:
        subprocess.run([RAY, "get-auth-token", "--generate"], env=env, check=True, capture_output=True, timeout=60)
        start_node(node_command(folder, "--head", "--port", str(port), "--num-cpus", "3", "--include-dashboard",
                                "false"), env, lambda: len(cluster.state()["nodes"]) == 1, nodes, folder, head=True)
        assert "Token authentication is enabled" in (folder / "node-head.log").read_text()
        start_node(node_command(folder, "--address", cluster.address, "--num-cpus", "2"),
                   {**env, "RAY_AUTH_MODE": "token"}, lambda: len(cluster.state()["nodes"]) == 2, nodes, folder,
                   head=False)
        yield cluster
    finally:
        stop(nodes, folder)
        shutil.rmtree(folder, ignore_errors=True)


def write_texts(folder: Path, sizes: dict[str, int]) -> list[str]:
    """STS-B sentences split into .txt files of the given sizes, in name order; all of them in that order."""
    folder.mkdir(parents=True, exist_ok=True)
    texts, start = stsb_corpus(), 0
    for name, size in sizes.items():
        (folder / f"{name}.txt").write_text("\n".join(texts[start:start + size]) + "\n", encoding="utf-8")
        start += size
    return texts[:start]


def read_vectors(folder: Path) -> np.ndarray:
    table = pads.dataset(str(folder), format="parquet").to_table()
    return np.asarray(table.column("vector").to_pylist(), dtype=np.float32)


def test_the_readme_commands_embed_on_two_nodes_as_the_local_command_does(token_cluster, tmp_path, embed,
                                                                          tiny_sentence_transformer_folder):
    texts = write_texts(tmp_path / "in", {"a": 600, "b": 400})
    (tmp_path / "all.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    assert main(["embed", "--model", str(tiny_sentence_transformer_folder), "--pooling", "default", "--input",
                 str(tmp_path / "all.txt"), "--output", str(tmp_path / "local.npy")]) == 0
    run = subprocess.run([*embed, "--address", token_cluster.address, "--workers", "2", "--cpus-per-worker", "2",
                          "--input", str(tmp_path / "in" / "*.txt"), "--output", str(tmp_path / "out")],
                         env=token_cluster.env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "1,000 / 1,000 texts" in run.stderr
    vectors = np.concatenate([read_vectors(tmp_path / "out" / name) for name in ("a", "b")])
    np.testing.assert_allclose(vectors, np.load(tmp_path / "local.npy"), atol=1e-5)
    embedders = token_cluster.embedders()
    assert len(embedders) == 2  # one actor pool for both files, each actor loading the model once
    assert {actor["node"] for actor in embedders} == set(token_cluster.state()["nodes"])


def test_ctrl_c_leaves_only_whole_folders_and_stops_the_actors(token_cluster, tmp_path, embed):
    write_texts(tmp_path / "in", {"a": 50, "b": 500, "c": 500, "d": 500})
    before = {actor["job"] for actor in token_cluster.embedders()}
    run = subprocess.Popen([*embed, "--address", token_cluster.address, "--workers", "2", "--cpus-per-worker", "2",
                            "--input", str(tmp_path / "in" / "*.txt"), "--output", str(tmp_path / "out")],
                           env=token_cluster.env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    said = []
    assert run.stderr is not None
    for line in run.stderr:
        said.append(line)
        if line.startswith("0 of 4 input file(s) already embedded"):  # before Ray is reached: no row is back
            run.send_signal(signal.SIGINT)  # what Ctrl-C sends
            break
    said += run.stderr.readlines()
    assert run.wait(timeout=120) == 130, "".join(said)[-3000:]
    assert any(line.startswith("Interrupted: the files listed above are complete") for line in said)
    out = tmp_path / "out"
    finished = sorted(path.name for path in out.iterdir() if not path.name.startswith("_"))
    assert finished[0] == "a" and "d" not in finished  # stopped once its first batch was written
    assert not (out / "_partial").exists()
    for name, size in {"a": 50, "b": 500, "c": 500}.items():
        if name in finished:
            assert len(read_vectors(out / name)) == size
    deadline = time.monotonic() + 30
    while (alive := [a for a in token_cluster.embedders() if a["job"] not in before and a["state"] != "DEAD"]):
        assert time.monotonic() < deadline, f"actors still running after Ctrl-C: {alive}"
        time.sleep(1)


# `core project --engine ray --address` with a fit small enough that the actors place most rows: 150 fitted, 240
# placed in 4 chunks of 60
PROJECT = """
import sys
import core.analysis.map.projection as projection
from core.cli import main
projection.FIT_POINTS, projection.CHUNK = 150, 60
sys.exit(main(["project", "--engine", "ray", "--workers", "2", "--method", "UMAP", "--neighbours", "10",
               *sys.argv[1:]]))
"""


def test_the_map_of_a_dataset_placed_on_two_nodes_is_the_local_commands(token_cluster, tmp_path, monkeypatch):
    import core.analysis.map.projection as projection
    from tests.core.scale.test_ray_project import dataset

    folder = dataset(tmp_path / "embedded")
    monkeypatch.setattr(projection, "FIT_POINTS", 150)
    monkeypatch.setattr(projection, "CHUNK", 60)
    assert main(["project", "--input", str(folder), "--output", str(tmp_path / "local.csv"), "--method", "UMAP",
                 "--neighbours", "10"]) == 0
    run = subprocess.run([sys.executable, "-c", PROJECT, "--address", token_cluster.address, "--input", str(folder),
                          "--output", str(tmp_path / "ray.csv")],
                         env={**token_cluster.env, "EXPLORER_CACHE_DIR": str(tmp_path / "cache")}, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    import pandas as pd

    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "ray.csv"), pd.read_csv(tmp_path / "local.csv"))
    placers = [actor for actor in token_cluster.state()["actors"] if "Placer" in actor["class"]]
    assert {actor["node"] for actor in placers} == set(token_cluster.state()["nodes"])  # both nodes placed rows


@pytest.mark.parametrize("token, says", [
    (None, "asks for its authentication token and this machine has none"),
    ("0" * 64, "refuses this machine's authentication token (read from the variable RAY_AUTH_TOKEN)"),
])
def test_a_missing_or_wrong_token_is_said_with_what_to_do(token_cluster, tmp_path, token, says, embed):
    (tmp_path / "home").mkdir()
    (tmp_path / "a.txt").write_text("one\n")
    env = {**token_cluster.env, "HOME": str(tmp_path / "home")} | ({"RAY_AUTH_TOKEN": token} if token else {})
    run = subprocess.run([*embed, "--address", token_cluster.address, "--input", str(tmp_path / "a.txt"),
                          "--output", str(tmp_path / "out")], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1
    assert says in run.stderr and "`ray get-auth-token`" in run.stderr, run.stderr[-2000:]
    # Without the check, Ray's own connect retries the refusal for 25 s and then blames the address; the message
    # says which path ran, so no wall-clock bound is needed (one failed CI on a busy machine: 22.7 s to start Python)
    assert "No Ray cluster answers" not in run.stderr


def test_a_cluster_with_authentication_off_is_reached_too(tmp_path, embed):
    folder = Path(tempfile.mkdtemp(prefix="rt-", dir="/tmp"))
    home = folder / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text("1" * 64)  # a token here must not keep the run off the cluster
    env = user_env(home)
    port = free_port()
    nodes: list[subprocess.Popen] = []
    try:
        cluster = StartedCluster(f"127.0.0.1:{port}", home, env, nodes, folder)
        start_node(node_command(folder, "--head", "--port", str(port), "--num-cpus", "2", "--include-dashboard",
                                "false"), {**env, "RAY_AUTH_MODE": "disabled"},
                   lambda: len(cluster.state()["nodes"]) == 1, nodes, folder, head=True)
        assert cluster.state(mode="disabled")["nodes"]  # reached without a token: authentication is off
        texts = write_texts(tmp_path / "in", {"a": 20})
        run = subprocess.run([*embed, "--address", cluster.address, "--workers", "1", "--input",
                              str(tmp_path / "in" / "a.txt"), "--output", str(tmp_path / "out")],
                             env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-3000:]
        assert len(read_vectors(tmp_path / "out" / "a")) == len(texts)
    finally:
        stop(nodes, folder)
        shutil.rmtree(folder, ignore_errors=True)
