"""`core embed --engine ray` against the local command: Ray runs on this machine (installed by `make scale`), started
inside the test process, or inside the command when it runs as its own process. Ray's token lives in RAY_AUTH_TOKEN
(tests/conftest.py), never in ~/.ray."""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import psutil
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from core.cli import main
from core.data.stsb import stsb_corpus
from core.encoding.encoder import encode_with
from core.settings import Settings
from tests.core.scale.interrupted_run import watch_children
from tests.extras import extra_module

ray = extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=3, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


def embedders() -> list[dict]:
    """This job's embedding actors as Ray's control service lists them."""
    from ray._private import state

    job = ray.get_runtime_context().get_job_id()
    return [actor for actor in state.actors().values()
            if "Embedder" in actor["ActorClassName"] and actor["JobID"] == job]


def read_folder(folder) -> tuple[pa.Table, np.ndarray]:
    table = pads.dataset(str(folder), format="parquet").to_table()
    return table, np.asarray(table.column("vector").to_pylist(), dtype=np.float32)


def test_two_thousand_stsb_sentences_equal_the_local_command(tmp_path, tiny_sentence_transformer_folder):
    """Rows in order over several blocks, with the tiny model (the packaged MiniLM's exactness on Ray is
    test_parquet_columns_are_kept_and_every_option_reaches_the_actors')."""
    texts = list(stsb_corpus()[:2000])
    source = tmp_path / "stsb.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    model = ["--model", str(tiny_sentence_transformer_folder), "--pooling", "default", "--input", str(source)]
    assert main(["embed", *model, "--output", str(tmp_path / "local.npy")]) == 0
    assert main(["embed", *model, "--engine", "ray", "--output", str(tmp_path / "out")]) == 0
    table, vectors = read_folder(tmp_path / "out" / "stsb")
    assert table.column("text").to_pylist() == texts
    np.testing.assert_allclose(vectors, np.load(tmp_path / "local.npy"), atol=1e-5)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["_embedding.json", "stsb"]


def test_a_sparse_models_indices_and_values_equal_the_local_command(tmp_path, sparse_folders):
    import scipy.sparse as sp

    from core.data.sparse_vectors import rows_of

    texts = list(stsb_corpus()[:300])
    source = tmp_path / "stsb.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    model = ["--model", str(sparse_folders["inference-free"]), "--pooling", "default", "--role", "query",
             "--input", str(source)]
    assert main(["embed", *model, "--output", str(tmp_path / "local.npz")]) == 0
    assert main(["embed", *model, "--engine", "ray", "--workers", "1", "--output", str(tmp_path / "out")]) == 0
    table = pads.dataset(str(tmp_path / "out" / "stsb"), format="parquet").to_table()
    assert table.column_names == ["text", "indices", "values"] and table.column("text").to_pylist() == texts
    local = sp.load_npz(tmp_path / "local.npz")
    np.testing.assert_allclose(rows_of(table, local.shape[1]).toarray(), local.toarray(), atol=1e-5)


def test_parquet_columns_are_kept_and_every_option_reaches_the_actors(tmp_path, minilm):
    texts = ["A man plays a guitar.", "A woman slices an onion.", "Stocks fell."] * 5
    pq.write_table(pa.table({"body": texts, "genre": ["a", "b", "c"] * 5}), tmp_path / "in.parquet")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "mean", "--layer", "4", "--normalize",
                 "--truncate-dim", "64", "--prompt", "query: ", "--engine", "ray", "--workers", "1",
                 "--text-column", "body",
                 "--input", str(tmp_path / "in.parquet"), "--output", str(tmp_path / "out")]) == 0
    table, vectors = read_folder(tmp_path / "out" / "in")
    assert table.column_names == ["text", "genre", "vector"]
    assert table.column("genre").to_pylist() == ["a", "b", "c"] * 5
    settings = Settings(pooling="mean", layer=4, normalize=True, truncate_dim=64, prompt="query: ")
    np.testing.assert_allclose(vectors, encode_with(minilm, texts, settings).vectors, atol=1e-5)


def test_many_files_share_one_actor_pool_and_keep_their_own_rows(tmp_path, capsys, tiny_sentence_transformer_folder):
    texts = list(stsb_corpus()[:300])
    for number in range(6):
        (tmp_path / f"part-{number}.txt").write_text("\n".join(texts[number * 50:(number + 1) * 50]) + "\n")
    before = len(embedders())
    assert main(["embed", "--model", str(tiny_sentence_transformer_folder), "--pooling", "default", "--engine", "ray",
                 "--workers", "2", "--input", str(tmp_path / "*.txt"), "--output", str(tmp_path / "out")]) == 0
    assert len(embedders()) - before == 2  # was 2 per file: an actor pool, and a model load, per file
    for number in range(6):
        table, _ = read_folder(tmp_path / "out" / f"part-{number}")
        assert table.column("text").to_pylist() == texts[number * 50:(number + 1) * 50]
    said = capsys.readouterr().err
    assert "embedding 6 (300 texts)" in said and "300 / 300 texts" in said and "[6/6]" in said


def test_a_rerun_embeds_only_the_files_whose_output_is_missing(tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_text(f"{name} one\n{name} two\n")
    args = ["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--engine", "ray", "--workers", "1",
            "--input", str(tmp_path / "*.txt"), "--output", str(tmp_path / "out")]
    assert main(args) == 0
    kept = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "out" / "a").iterdir()}
    for part in (tmp_path / "out" / "b").iterdir():
        part.unlink()
    (tmp_path / "out" / "b").rmdir()
    (tmp_path / "out" / "_partial" / "b").mkdir(parents=True)  # what an interrupted run leaves
    (tmp_path / "out" / "_partial" / "b" / "half.parquet").write_bytes(b"cut off")
    capsys.readouterr()
    assert main(args) == 0
    said = capsys.readouterr().err
    assert "1 of 2 input file(s) already embedded" in said and "b.txt: 2 texts" in said and "a.txt" not in said
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "out" / "a").iterdir()} == kept
    assert read_folder(tmp_path / "out" / "b")[0].column("text").to_pylist() == ["b one", "b two"]
    assert not (tmp_path / "out" / "_partial").exists()


def test_an_output_folder_of_other_settings_is_refused(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("one\n")
    args = ["embed", "--model", "all-MiniLM-L6-v2", "--engine", "ray", "--workers", "1",
            "--input", str(tmp_path / "a.txt"), "--output", str(tmp_path / "out"), "--pooling"]
    assert main([*args, "default"]) == 0
    assert main([*args, "cls"]) == 1
    assert "holds vectors made with other settings (all-MiniLM-L6-v2, default pooling)" in capsys.readouterr().err


def test_an_address_that_does_not_answer_is_said_at_once(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("one\n")
    ray.shutdown()
    try:
        assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--engine", "ray",
                     "--address", "127.0.0.1:1", "--input", str(tmp_path / "a.txt"),
                     "--output", str(tmp_path / "out")]) == 1
    finally:
        ray.init(num_cpus=3, include_dashboard=False, logging_level="WARNING")
    assert "No Ray cluster answers at 127.0.0.1:1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_ctrl_c_leaves_only_whole_folders_and_stops_the_ray_it_started(tmp_path, tiny_sentence_transformer_folder):
    """The command as its own process, starting Ray inside itself as it does without --address. Ctrl-C comes when
    the command says what it will embed, before Ray starts: it stops once its first batch is written (file a, and
    b where the batch holds it whole), never later; the Ray processes it started are watched while it runs."""
    texts = list(stsb_corpus()[:1050])
    sizes = {"a": 50, "b": 500, "c": 500}
    start = 0
    for name, size in sizes.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(texts[start:start + size]) + "\n")
        start += size
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env["RAY_AUTH_TOKEN"] = os.environ["RAY_AUTH_TOKEN"]  # as tests/conftest.py set it: never a file in ~/.ray
    run = subprocess.Popen([sys.executable, "-m", "core", "embed", "--engine", "ray", "--model",
                            str(tiny_sentence_transformer_folder), "--pooling", "default", "--input",
                            str(tmp_path / "*.txt"), "--output", str(tmp_path / "out")],
                           cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    started: dict[psutil.Process, str] = {}  # Ray's processes, the actors among them, with their command lines
    watcher = threading.Thread(target=watch_children, args=(run, started))
    watcher.start()
    said = []
    assert run.stderr is not None
    for line in run.stderr:
        said.append(line)
        if line.startswith("0 of 3 input file(s) already embedded"):
            run.send_signal(signal.SIGINT)  # what Ctrl-C sends
            break
    said += run.stderr.readlines()
    assert run.wait(timeout=120) == 130, "".join(said)[-3000:]
    watcher.join()
    assert "Ctrl-C: stopping once the batch under way is written; press it again to stop at once.\n" in said
    assert any(line.startswith("Interrupted: the files listed above are complete") for line in said)
    assert any("MapWorker" in command for command in started.values())
    gone, alive = psutil.wait_procs(list(started), timeout=30)
    assert not alive, f"still running after Ctrl-C: {[started[process] for process in alive]}"
    out = tmp_path / "out"
    finished = sorted(path.name for path in out.iterdir() if not path.name.startswith("_"))
    assert finished[0] == "a" and "c" not in finished and not (out / "_partial").exists()
    for name in finished:
        assert len(read_folder(out / name)[0]) == sizes[name]

