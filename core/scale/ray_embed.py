"""`python -m core embed --engine ray`: input files embedded on Ray Data. Each file is read by Ray's own reader,
embedded by `map_batches` over an actor pool (each actor loads the model once and runs the local command's
`encode`), and written by Ray as Parquet into `_partial/<name>`, which moves to `<name>` only when whole: a rerun
embeds only the files whose folder is missing."""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.fs as pafs

from core.data.datasets import PARTIAL, Manifest, read_manifest, write_manifest
from core.data.vectors import TEXT_COLUMN, VECTOR_COLUMN
from core.scale.inputs import InputFile, filesystem, input_files
from core.settings import Settings

INSTALL = "install it with `make scale` (pip install -r requirements-scale.txt)"
ROWS_PER_BATCH = 512  # texts an actor embeds per call; the encoder batches them further by its own batch size


class ScaleError(ValueError):
    """A run that cannot start or go on, said in one sentence."""


@dataclass(frozen=True)
class Cluster:
    """Where the actors run: this machine (`address` None) or a running Ray cluster, and what each actor holds."""

    address: str | None = None
    workers: int = 2
    cpus_per_worker: float = 1.0
    gpus_per_worker: float = 0.0


class Embedder:
    """One per actor: the model is loaded once; each call names the texts `text` and adds their `vector`."""

    def __init__(self, settings: Settings, text_column: str, threads: int, batch_size: int) -> None:
        import torch

        from core.models.loading import load_model

        torch.set_num_threads(threads)
        self.settings, self.text_column, self.batch_size = settings, text_column, batch_size
        self.model = load_model(settings.model_id, settings.device)

    def __call__(self, batch: pa.Table) -> pa.Table:
        from core.encoding.encoder import encode_with

        texts = [text.removesuffix("\r") for text in batch.column(self.text_column).to_pylist()]
        vectors = encode_with(self.model, texts, self.settings, batch_size=self.batch_size).vectors
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).ravel())
        offsets = pa.array(np.arange(0, len(flat) + 1, vectors.shape[1], dtype=np.int32))
        batch = batch.set_column(batch.schema.get_field_index(self.text_column), TEXT_COLUMN, pa.array(texts))
        return batch.append_column(VECTOR_COLUMN, pa.ListArray.from_arrays(offsets, flat))


def import_ray() -> ModuleType:
    try:
        import ray
        import ray.data  # noqa: F401  (the extra is ray[data])
    except ModuleNotFoundError as err:
        raise ScaleError(f"Ray is not installed; {INSTALL}.") from err
    return ray


def check_answers(address: str, timeout: float = 5.0) -> None:
    """Ray's own connect retries an address that does not answer for minutes (seen: over 5 with no error), so a
    plain TCP connect to its host and port decides first."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except ValueError as err:
        raise ScaleError(f"{address} is not a Ray address; give host:6379, or ray://host:10001.") from err
    except OSError as err:
        raise ScaleError(f"No Ray cluster answers at {address} ({err.strerror or err}); start one there with "
                         "`ray start --head`, or leave out --address to run on this machine.") from err


def connect(ray: ModuleType, cluster: Cluster) -> None:
    if ray.is_initialized():
        return
    try:
        if cluster.address:
            check_answers(cluster.address)
            import core

            ray.init(address=cluster.address, runtime_env={"py_modules": [core]}, logging_level="WARNING")
        else:
            # Reading and writing tasks need a CPU beside the actors' or Ray waits for one forever (seen on 2 cores)
            needed = math.ceil(cluster.workers * cluster.cpus_per_worker) + 1
            ray.init(num_cpus=max(os.cpu_count() or 1, needed), include_dashboard=False, logging_level="WARNING")
    except (ConnectionError, TimeoutError, RuntimeError) as err:
        raise ScaleError(f"No Ray cluster answers at {cluster.address} ({str(err).splitlines()[0]}); start one "
                         "there with `ray start --head`, or leave out --address to run on this machine.") from err


def _read(ray: ModuleType, file: InputFile, fs: pafs.FileSystem, text_column: str):
    if file.kind == "text":
        return ray.data.read_text(file.path, filesystem=fs, drop_empty_lines=False)
    return ray.data.read_parquet(file.path, filesystem=fs)


def _exists(fs: pafs.FileSystem, path: str) -> bool:
    return fs.get_file_info(path).type != pafs.FileType.NotFound


def embed_files(location: str, output: str, settings: Settings, *, text_column: str = "text",
                cluster: Cluster = Cluster(), batch_size: int = 32, say: Callable[[str], None] = print) -> list[str]:
    """Embed every input file `location` names into `output`; the output folders written by this run."""
    in_fs, files = input_files(location, text_column)
    out_fs, out = filesystem(output)
    manifest = Manifest(settings.with_(device="auto"))
    found = read_manifest(out_fs, out)
    if found is not None and found != manifest:
        raise ScaleError(f"{output} holds vectors made with other settings ({found.settings.model_id}, "
                         f"{found.settings.pooling} pooling); choose another output folder to keep both.")
    todo = [file for file in files if not _exists(out_fs, f"{out}/{file.name}")]
    say(f"{len(files) - len(todo)} of {len(files)} input file(s) already embedded in {output}; "
        f"embedding {len(todo)}.")
    if not todo:
        return []
    ray = import_ray()
    connect(ray, cluster)
    out_fs.create_dir(f"{out}/{PARTIAL}", recursive=True)
    write_manifest(out_fs, out, manifest)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    written = []
    for number, file in enumerate(todo, 1):
        partial = f"{out}/{PARTIAL}/{file.name}"
        if _exists(out_fs, partial):  # what an interrupted run left
            out_fs.delete_dir(partial)
        column = text_column if file.kind == "parquet" else "text"
        embedded = _read(ray, file, in_fs, column).map_batches(
            Embedder, fn_constructor_kwargs={"settings": settings, "text_column": column,
                                             "threads": max(1, int(cluster.cpus_per_worker)),
                                             "batch_size": batch_size},
            batch_size=ROWS_PER_BATCH, batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=cluster.workers),
            num_cpus=cluster.cpus_per_worker, num_gpus=cluster.gpus_per_worker)
        embedded.write_parquet(partial, filesystem=out_fs)
        out_fs.move(partial, f"{out}/{file.name}")
        rows = pads.dataset(f"{out}/{file.name}", filesystem=out_fs, format="parquet").count_rows()
        say(f"[{number}/{len(todo)}] {file.path}: {rows:,} texts → {out}/{file.name}")
        written.append(f"{out}/{file.name}")
    out_fs.delete_dir(f"{out}/{PARTIAL}")
    return written
