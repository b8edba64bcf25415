"""`python -m core embed --engine ray`: input files embedded on Ray Data. Each file is read by Ray's own reader,
embedded by `map_batches` over an actor pool (each actor loads the model once and runs the local command's
`encode`), and written by Ray as Parquet into `_partial/<name>`, which moves to `<name>` only when whole: a rerun
embeds only the files whose folder is missing."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.fs as pafs

from core.data.datasets import PARTIAL, Manifest, read_manifest, write_manifest
from core.data.vectors import TEXT_COLUMN, VECTOR_COLUMN
from core.scale.cluster import Cluster, ScaleError, connect, import_ray
from core.scale.inputs import InputFile, filesystem, input_files
from core.settings import Settings

ROWS_PER_BATCH = 512  # texts an actor embeds per call; the encoder batches them further by its own batch size


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
