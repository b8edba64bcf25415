"""Corpora beyond one machine: Ray Data against the single-process `core embed` (both whole commands), and search
over one and five million synthetic vectors, exact against HNSW, with recall@10."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import ROOT, Row, latency_percentiles_ms

RAY_TEXTS = 20_000
RAY_SHARDS, RAY_SHARD_TEXTS = 8, 500  # against one file of the same 4,000 texts
INDEX_ROWS = 1_000_000
INDEX_SIZES = (INDEX_ROWS, 5_000_000)  # 5M: 7.7 GB of vectors and the graph's own copy, on 24 GB


def _command_seconds(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "core", "embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default",
                    *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def _write_lines(path: Path, texts: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")


def bench_ray(rows: list[Row], repeats: int = 2) -> None:
    """Whole commands as a user runs them, interleaved, each side's best of `repeats` (a fresh output folder each)."""
    from core.data.stsb import stsb_corpus

    corpus = stsb_corpus()
    texts = [f"{corpus[i % len(corpus)]} ({i // len(corpus)})" for i in range(RAY_TEXTS)]  # distinct: no memo hit
    shards = RAY_SHARDS * RAY_SHARD_TEXTS
    best = dict.fromkeys(("local", "ray", "one", "many"), float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "texts.txt"
        _write_lines(source, texts)
        _write_lines(Path(folder) / "one" / "texts.txt", texts[:shards])
        for number in range(RAY_SHARDS):
            _write_lines(Path(folder) / "shards" / f"part-{number}.txt",
                         texts[number * RAY_SHARD_TEXTS:(number + 1) * RAY_SHARD_TEXTS])
        ray = ["--engine", "ray", "--workers", "2"]
        for repeat in range(repeats):
            runs = {"local": ["--input", str(source), "--output", f"{folder}/local.npy"],
                    "ray": [*ray, "--input", str(source), "--output", f"{folder}/ray-{repeat}"],
                    "one": [*ray, "--input", f"{folder}/one/texts.txt", "--output", f"{folder}/one-{repeat}"],
                    "many": [*ray, "--input", f"{folder}/shards/*.txt", "--output", f"{folder}/many-{repeat}"]}
            for name, args in runs.items():
                best[name] = min(best[name], _command_seconds(args))
    rows.append(Row(f"Embed {RAY_TEXTS:,} STS-B texts, whole command (model load and, for Ray, start-up included): "
                    "`core embed --engine ray`, 2 workers on this machine", f"{RAY_TEXTS / best['ray']:,.0f} texts/s",
                    f"single-process `core embed`: {RAY_TEXTS / best['local']:,.0f} texts/s",
                    f"{best['local'] / best['ray']:.2f}× (what the engine costs on one machine; goal: 0.85×)",
                    raw={"ray_s": best["ray"], "local_s": best["local"], "texts": RAY_TEXTS}))
    rows.append(Row(f"Embed {shards:,} STS-B texts as {RAY_SHARDS} files of {RAY_SHARD_TEXTS}, whole command: "
                    "`core embed --engine ray`, 2 workers on this machine", f"{best['many']:.1f} s",
                    f"the same texts as one file: {best['one']:.1f} s",
                    f"{best['many'] / best['one']:.2f}× (what a file costs; goal: within 1.2×)",
                    raw={"files_s": best["many"], "one_file_s": best["one"], "files": RAY_SHARDS, "texts": shards}))


def synthetic(rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """STS-B sentence vectors (all-MiniLM-L6-v2, unit length) repeated with Gaussian noise and scaled to unit length
    again, block by block (no second copy of millions of rows), and 100 queries made the same way from other
    draws."""
    from core.analysis.search import unit_rows
    from core.data.stsb import stsb_corpus
    from core.encoding.embedding_cache import cached_embeddings_with
    from core.models.loading import load_model
    from core.settings import Settings

    base = unit_rows(cached_embeddings_with(load_model("all-MiniLM-L6-v2", "cpu"), stsb_corpus(), Settings()))
    rng = np.random.default_rng(seed)
    vectors = np.empty((rows, base.shape[1]), np.float32)
    for start in range(0, rows, 100_000):
        stop = min(start + 100_000, rows)
        picks = rng.integers(0, len(base), stop - start)
        vectors[start:stop] = unit_rows(base[picks] + rng.normal(0, 0.03, (stop - start, base.shape[1])))
    queries = base[rng.integers(0, len(base), 100)] + rng.normal(0, 0.03, (100, base.shape[1])).astype(np.float32)
    return vectors, queries


def bench_index(rows: list[Row]) -> None:
    for n in INDEX_SIZES:
        _bench_index_of(rows, n)


def _bench_index_of(rows: list[Row], n: int) -> None:
    from core.analysis.vector_index import IndexParams, build_index

    vectors, queries = synthetic(n)
    exact = build_index(vectors, IndexParams("exact"))
    start = time.perf_counter()
    hnsw = build_index(vectors, IndexParams("hnsw"))  # the app's parameters, above its threshold
    built = time.perf_counter() - start
    truth, found = exact.search(queries, 10).indices, hnsw.search(queries, 10).indices
    recall = np.mean([len(set(t) & set(f)) / 10 for t, f in zip(truth, found)])
    e50, e95 = latency_percentiles_ms(lambda q: exact.search(q, 10), queries)
    h50, h95 = latency_percentiles_ms(lambda q: hnsw.search(q, 10), queries)
    rows.append(Row(f"Top-10 of one query over {n:,} synthetic 384-dim vectors (STS-B vectors plus noise): "
                    f"{hnsw.params.label}, built in {built / 60:.1f} min", f"p50 {h50:.2f} ms, p95 {h95:.2f} ms; "
                    f"recall@10 {recall:.3f} on 100 queries ({hnsw.recall_at_10:.3f} at build time)",
                    f"exact search: p50 {e50:.1f} ms, p95 {e95:.1f} ms", f"{e50 / h50:,.0f}× (p50)",
                    raw={"vectors": n, "build_s": built, "hnsw_p50_ms": h50, "hnsw_p95_ms": h95, "exact_p50_ms": e50,
                         "exact_p95_ms": e95, "recall_at_10": float(recall),
                         "recall_at_10_at_build": hnsw.recall_at_10}))


def _write_dataset(folder: Path, vectors: np.ndarray) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.data.datasets import Manifest, write_manifest
    from core.scale.inputs import filesystem
    from core.settings import Settings

    folder.mkdir(parents=True)
    for start in range(0, len(vectors), 100_000):
        part = vectors[start:start + 100_000]
        flat = pa.array(part.ravel())
        lists = pa.ListArray.from_arrays(pa.array(np.arange(0, len(flat) + 1, part.shape[1], dtype=np.int32)), flat)
        texts = [f"synthetic text {i}" for i in range(start, start + len(part))]
        pq.write_table(pa.table({"text": texts, "vector": lists}), folder / f"part-{start // 100_000:03d}.parquet")
    write_manifest(*filesystem(str(folder)), Manifest(Settings()))


def bench_dataset_sessions(rows: list[Row], n: int = INDEX_ROWS, sessions: int = 30) -> None:
    """Sessions of one process as AppTest runs them (Streamlit's caches are per process, as on a server), each with
    the dataset chosen on Retrieval and its query answered."""
    import os

    import psutil
    from streamlit.testing.v1 import AppTest

    from core.analysis.index_store import stored_index
    from core.analysis.vector_index import IndexParams
    from core.deployment import load_config
    from core.jobs import JOBS

    vectors, _ = synthetic(n)
    with tempfile.TemporaryDirectory() as folder:
        _write_dataset(Path(folder) / "synthetic", vectors)
        stored_index(vectors, IndexParams.for_rows(n))  # built once ahead, as a server's queue would have
        del vectors
        os.environ["EXPLORER_DATASETS"] = str(Path(folder) / "synthetic")
        load_config.cache_clear()
        process, opened = psutil.Process(), []
        before = process.memory_info().rss / 2**20
        for number in range(sessions):
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
            at.run()
            at.switch_page("views/retrieval.py").run()
            at.radio(key="ret_source").set_value("Dataset: synthetic").run()
            if JOBS.unfinished():
                JOBS.wait_idle(1200)
                at.run()
            assert not at.exception and at.dataframe, "the dataset did not answer"
            opened.append(at)
            if number == 0:
                one = process.memory_info().rss / 2**20
        every = process.memory_info().rss / 2**20
    del os.environ["EXPLORER_DATASETS"]
    load_config.cache_clear()
    rows.append(Row(f"Resident memory with a {n:,}-vector dataset open on Retrieval in {sessions} sessions of one "
                    "server process (vectors memory-mapped, index shared)", f"{every:,.0f} MB",
                    f"one session: {one:,.0f} MB (the process before: {before:,.0f} MB)",
                    f"{every - one:+,.0f} MB for {sessions - 1} more sessions",
                    raw={"every_mb": every, "one_mb": one, "before_mb": before, "vectors": n, "sessions": sessions}))
