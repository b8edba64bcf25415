"""`python -m core embed --engine ray`: every input file read as one Ray dataset (one reader call per file format
and schema, each row naming its file), embedded by `map_batches` over one actor pool (each actor loads the model once
per run and runs the local command's `encode`), and written here file by file: a file's Parquet grows in
`_partial/<name>` and moves to `<name>` once all its rows are in, so a rerun embeds only the files whose folder is
missing."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from types import ModuleType

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from core.data.datasets import PARTIAL, Manifest, read_manifest, write_manifest
from core.data.vectors import TEXT_COLUMN
from core.kinds import kind_of
from core.scale.cluster import Cluster, ScaleError, connect, import_ray
from core.scale.inputs import PATH_COLUMN, InputFile, filesystem, input_files
from core.settings import Settings

ROWS_PER_BATCH = 512  # texts an actor embeds per call; the encoder batches them further by its own batch size
class Embedder:
    """One per actor: the model is loaded once; each call adds the embedding columns of the batch's `text`."""

    def __init__(self, settings: Settings, threads: int, batch_size: int) -> None:
        import torch

        from core.models.loading import load_model

        torch.set_num_threads(threads)
        self.settings, self.batch_size = settings, batch_size
        self.model = load_model(settings.model_id, settings.device)

    def __call__(self, batch: pa.Table) -> pa.Table:
        kind = kind_of(self.model)
        encoded = kind.encode(self.model, batch.column(TEXT_COLUMN).to_pylist(), self.settings,
                              batch_size=self.batch_size)
        for field, column in zip(kind.schema, kind.columns(self.model, encoded)):
            batch = batch.append_column(field, column)
        return batch


class FileOutput:
    """One input file's output folder: filled in `_partial/<name>`, moved to `<name>` when all its rows are in."""

    def __init__(self, file: InputFile, fs: pafs.FileSystem, folder: str, added: pa.Schema) -> None:
        self.file, self.fs = file, fs
        self.partial, self.target = f"{folder}/{PARTIAL}/{file.name}", f"{folder}/{file.name}"
        self.schema = pa.schema([*file.schema, *added])
        self.rows = 0
        self._writer: pq.ParquetWriter | None = None

    def write(self, rows: pa.Table) -> None:
        if self._writer is None:
            if _exists(self.fs, self.partial):  # what an interrupted run left
                self.fs.delete_dir(self.partial)
            self.fs.create_dir(self.partial, recursive=True)
            self._writer = pq.ParquetWriter(f"{self.partial}/{self.file.name}.parquet", self.schema,
                                            filesystem=self.fs)
        self._writer.write_table(rows.select(self.schema.names).cast(self.schema))
        self.rows += rows.num_rows

    @property
    def complete(self) -> bool:
        return self.rows == self.file.rows

    def finish(self) -> None:
        if self._writer is None:  # a file without a row still gets its folder, so a rerun skips it
            self.write(self.schema.empty_table())
        assert self._writer is not None
        self._writer.close()
        self.fs.move(self.partial, self.target)

    def abandon(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if _exists(self.fs, self.partial):
            self.fs.delete_dir(self.partial)


def _exists(fs: pafs.FileSystem, path: str) -> bool:
    return fs.get_file_info(path).type != pafs.FileType.NotFound


def _dataset(ray: ModuleType, files: list[InputFile], fs: pafs.FileSystem, text_column: str, workers: int):
    """The files as one dataset: one reader call for the text files and one per schema of Parquet files (Ray's
    Parquet reader reads every file with the first one's schema), each row naming its file in PATH_COLUMN, in blocks
    of about ROWS_PER_BATCH rows (a block comes back whole: smaller ones show progress sooner and keep every actor
    busy to the end), and at least one block per worker."""
    groups: dict[tuple[str, str], list[InputFile]] = {}
    for file in files:
        groups.setdefault((file.file_format, file.schema.to_string()), []).append(file)
    parts = []
    for (file_format, _), group in groups.items():
        paths = [file.path for file in group]
        blocks = max(workers, math.ceil(sum(file.rows for file in group) / ROWS_PER_BATCH))
        if file_format == "text":
            parts.append(ray.data.read_text(paths, filesystem=fs, drop_empty_lines=False, include_paths=True,
                                            file_extensions=None, override_num_blocks=blocks))
            continue
        part = ray.data.read_parquet(paths, filesystem=fs, include_paths=True, partitioning=None, file_extensions=None,
                                     override_num_blocks=blocks)
        parts.append(part.rename_columns({text_column: TEXT_COLUMN}) if text_column != TEXT_COLUMN else part)
    return parts[0].union(*parts[1:]) if len(parts) > 1 else parts[0]


def _by_file(batch: pa.Table) -> Iterator[tuple[str, pa.Table]]:
    """The batch's runs of rows from one file (a batch can join the end of one file and the start of another)."""
    paths = batch.column(PATH_COLUMN).to_pylist()
    start = 0
    for end in range(1, len(paths) + 1):
        if end == len(paths) or paths[end] != paths[start]:
            yield paths[start], batch.slice(start, end - start)
            start = end


def _quiet_ray_data(ray: ModuleType) -> None:
    """The command draws one progress line of its own: no bars, plan or notice from Ray Data."""
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True  # each file's rows in its own order
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)  # "Progress bars disabled"


def embed_files(location: str, output: str, settings: Settings, *, text_column: str = "text",
                cluster: Cluster = Cluster(), batch_size: int = 32, say: Callable[[str], None] = print,
                progress: Callable[[int, int], None] = lambda done, total: None, kind: str = "dense",
                stop: Callable[[], bool] = lambda: False) -> list[str]:
    """Embed every input file `location` names into `output` with a model of `kind` (dense, sparse or late
    interaction: the columns it adds); the output folders written by this run, each whole.
    `progress` hears the texts done of the texts to do as the rows come back; `stop` is asked after each batch is
    written, and when it says True the run ends there, with the files completed so far. However the run ends, no
    folder is left half-written and the actors it started are stopped."""
    in_fs, files = input_files(location, text_column)
    out_fs, out = filesystem(output)
    manifest = Manifest(settings.with_(device="auto"))
    found = read_manifest(out_fs, out)
    if found is not None and found != manifest:
        raise ScaleError(f"{output} holds vectors made with other settings ({found.settings.model_id}, "
                         f"{found.settings.pooling} pooling); choose another output folder to keep both.")
    todo = [file for file in files if not _exists(out_fs, f"{out}/{file.name}")]
    total = sum(file.rows for file in todo)
    say(f"{len(files) - len(todo)} of {len(files)} input file(s) already embedded in {output}; "
        f"embedding {len(todo)} ({total:,} texts).")
    if not todo:
        return []
    outputs = {file.path: FileOutput(file, out_fs, out, kind_of(kind).schema) for file in todo}
    written: list[str] = []

    def finish(filled: FileOutput) -> None:
        filled.finish()
        written.append(filled.target)
        say(f"[{len(written)}/{len(todo)}] {filled.file.path}: {filled.rows:,} texts → {filled.target}")

    rows = [file for file in todo if file.rows]  # a file without a row needs no Ray
    # Ray first: when it cannot start, nothing is written
    with _embedded(in_fs, rows, settings, text_column, cluster, batch_size) if rows else nullcontext(()) as batches:
        out_fs.create_dir(f"{out}/{PARTIAL}", recursive=True)
        write_manifest(out_fs, out, manifest)
        try:
            for each in outputs.values():
                if each.complete:
                    finish(each)
            done = 0
            for batch in batches:
                for path, part in _by_file(batch):
                    outputs[path].write(part)
                    if outputs[path].complete:
                        finish(outputs[path])
                done += batch.num_rows
                progress(done, total)
                if stop():
                    break
            if len(written) < len(todo) and not stop():
                raise ScaleError("Ray Data gave fewer rows than the input files hold; run the same command again.")
        finally:
            for each in outputs.values():
                if each.target not in written:
                    each.abandon()
            out_fs.delete_dir(f"{out}/{PARTIAL}")
    return written


@contextmanager
def _embedded(fs: pafs.FileSystem, files: list[InputFile], settings: Settings, text_column: str, cluster: Cluster,
              batch_size: int) -> Iterator[Iterable[pa.Table]]:
    """The files' rows with their embedding columns, in each file's order, as Ray gives them back; Ray is left as
    it was found when the block ends, however it ends."""
    ray = import_ray()
    started = connect(ray, cluster)
    try:
        _quiet_ray_data(ray)
        embedded = _dataset(ray, files, fs, text_column, cluster.workers).map_batches(
            Embedder, fn_constructor_kwargs={"settings": settings, "threads": max(1, int(cluster.cpus_per_worker)),
                                             "batch_size": batch_size},
            batch_size=ROWS_PER_BATCH, batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=cluster.workers),
            num_cpus=cluster.cpus_per_worker, num_gpus=cluster.gpus_per_worker)
        yield embedded.iter_batches(batch_format="pyarrow", batch_size=None)
    finally:
        if started:
            ray.shutdown()  # on a cluster, the actors stop with the job that started them
