"""Datasets a deployment lists: folders of Parquet files of texts and vectors (the layout `to_parquet` writes, one row
per text; a late-interaction model's tokens and token vectors instead) with an `_embedding.json` saying how they were
embedded, and vector stores named by a URI (core.data.stores: a table's texts, vectors and metadata). pyarrow's dataset
readers skip names starting with "_" or ".", so the manifest and unfinished parts are never read as data."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path, PurePath

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.fs as pafs

from core.data.late_parquet import TOKEN_VECTORS_COLUMN, TOKENS_COLUMN, matrix_of
from core.data.sampling import sample_indices
from core.data.sparse_vectors import INDICES_COLUMN
from core.data.stores import StoreError, anchored, is_store_uri, parse_store_uri
from core.data.stores.reading import read_store, store_count
from core.data.vectors import TEXT_COLUMN, VECTOR_COLUMN
from core.deployment import CONFIG_FILE, DeploymentConfig
from core.encoding.late.cache import stored_file, write_token_matrix
from core.encoding.late.matrix import TokenMatrix
from core.hashing import texts_digest
from core.paths import atomic_write, cache_dir
from core.settings import Settings

MANIFEST = "_embedding.json"
PARTIAL = "_partial"  # folders being written; moved into place whole
FORMAT = 1


@dataclass(frozen=True)
class Manifest:
    """The settings every vector in the folder was made with (the device left out: it changes no vector)."""

    settings: Settings

    def to_json(self) -> str:
        settings = {key: value for key, value in asdict(self.settings).items() if key != "device"}
        return json.dumps({"format": FORMAT, "settings": settings}, indent=2)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"This dataset's {MANIFEST} is of format {data.get('format')}, not {FORMAT}.")
        return cls(Settings(**{"role": "document", **data["settings"]}))  # before roles, every text was a document


def read_manifest(fs: pafs.FileSystem, folder: str) -> Manifest | None:
    path = f"{folder.rstrip('/')}/{MANIFEST}"
    if fs.get_file_info(path).type != pafs.FileType.File:
        return None
    with fs.open_input_stream(path) as stream:
        return Manifest.from_json(stream.read().decode("utf-8"))


def write_manifest(fs: pafs.FileSystem, folder: str, manifest: Manifest) -> None:
    with fs.open_output_stream(f"{folder.rstrip('/')}/{MANIFEST}") as stream:
        stream.write(manifest.to_json().encode("utf-8"))


class DatasetError(ValueError):
    """A dataset folder that cannot be opened, said in one sentence."""


@dataclass(frozen=True)
class DatasetInfo:
    """What a corpus picker shows of a listed folder, read from file metadata only."""

    name: str
    source: str  # the folder's resolved path, or the store's URI
    rows: int
    manifest: Manifest | None
    version: str  # source_version when read: a server reopens the dataset when it changes
    late: bool = False  # a late-interaction model's tokens and token vectors, not one vector a text

    @property
    def label(self) -> str:
        if self.manifest is None:
            made = ("token vectors made elsewhere" if self.late else
                    "vectors of a store" if is_store_uri(self.source) else "vectors made elsewhere")
            return f"{self.name} ({self.rows:,} texts, {made})"
        settings = self.manifest.settings
        how = "late interaction" if self.late else f"{settings.pooling} pooling"
        return f"{self.name} ({self.rows:,} texts, {settings.model_id}, {how})"


@dataclass(frozen=True)
class Dataset:
    """Texts and metadata as an Arrow table (never a Python list per row) and the vectors as a read-only array
    memory-mapped from the cache: one copy per server, however many sessions search it."""

    info: DatasetInfo
    table: pa.Table
    vectors: np.ndarray

    def texts(self, rows: Sequence[int]) -> list[str]:
        return [str(text) for text in self.table.column(TEXT_COLUMN).take(pa.array(rows, pa.int64())).to_pylist()]


def _parquet(folder: Path) -> pads.Dataset:
    return pads.dataset(str(folder), format="parquet")


def _file_stats(folder: Path) -> list[str]:
    """Each Parquet file of the folder (as pyarrow finds them: no "_" or "." names) with its size and time."""
    return sorted(f"{path}:{(stat := os.stat(path)).st_size}:{stat.st_mtime_ns}" for path in _parquet(folder).files)


def _not_parquet(folder: Path) -> list[str]:
    """The files of the folder that pyarrow would read but cannot open as Parquet, relative to it."""
    found = pads.dataset(str(folder), format="parquet", schema=pa.schema([])).files  # a given schema opens no file
    valid = set(pads.dataset(str(folder), format="parquet", exclude_invalid_files=True).files)
    return sorted(PurePath(path).relative_to(folder).as_posix() for path in found if path not in valid)


def folder_version(folder: Path) -> str:
    """Changes when a Parquet file of the folder is added, replaced or removed; "" for a folder that does not
    open (dataset_info says why)."""
    try:
        return texts_digest(_file_stats(folder), prefix=str(folder).encode())
    except (OSError, pa.ArrowInvalid):
        return ""


def source_version(source: str) -> str:
    """A folder's version, or a store's: its row count (a store tells no cheaper sign of a change; a row replaced in
    place, its count unchanged, is seen once the server restarts); "" where it does not open."""
    if not is_store_uri(source):
        return folder_version(Path(source))
    try:
        return _store_version(source, store_count(source))
    except StoreError:
        return ""


def _store_version(uri: str, rows: int) -> str:
    return texts_digest([str(rows)], prefix=uri.encode())


def _store_info(uri: str) -> DatasetInfo:
    rows = store_count(uri)
    if rows == 0:
        raise DatasetError(f"The listed store {parse_store_uri(uri).shown} holds no rows yet; it appears once rows "
                           "are written to it.")
    return DatasetInfo(parse_store_uri(uri).name, uri, rows, None, _store_version(uri, rows))


def dataset_info(source: str | Path) -> DatasetInfo:
    if is_store_uri(str(source)):
        return _store_info(str(source))
    folder = Path(source)
    if not folder.is_dir():
        raise DatasetError(f"The listed dataset folder {folder} does not exist; embed into it with "
                           "`python -m core embed --engine ray --output` or remove it from explorer.toml.")
    try:
        rows = _parquet(folder).count_rows()
    except pa.ArrowInvalid as err:
        bad = _not_parquet(folder)
        if not bad:
            raise
        what, way = (("is not a Parquet file", "it or embed its input") if len(bad) == 1 else
                     ("are not Parquet files", "them or embed their inputs"))
        raise DatasetError(f"The listed dataset folder {folder} holds {', '.join(bad)}, which {what}; remove {way} "
                           "again and the folder is listed again.") from err
    if rows == 0:
        raise DatasetError(f"The listed dataset folder {folder} holds no vectors yet (a run still going, or none "
                           "finished); it appears once a first input file is embedded.")
    columns = _parquet(folder).schema.names
    if VECTOR_COLUMN not in columns and INDICES_COLUMN in columns:
        raise DatasetError(f"The listed dataset folder {folder} holds a sparse model's vectors (indices and values); "
                           "Retrieval and the map open dense dataset folders so far: read it with scipy or pyarrow, "
                           "or embed the corpus with a dense model to open it here.")
    return DatasetInfo(folder.name, str(folder), rows, read_manifest(pafs.LocalFileSystem(), str(folder)),
                       folder_version(folder), VECTOR_COLUMN not in columns and TOKEN_VECTORS_COLUMN in columns)


def dataset_sources(config: DeploymentConfig) -> list[str]:
    """Each dataset the deployment lists: a folder's resolved path, or a store's URI (a store folder's relative path
    anchored at the repo root too)."""
    root = CONFIG_FILE.parent
    return [anchored(source, root) if is_store_uri(source) else str((root / source).resolve())
            for source in config.datasets]


def listed_datasets(sources: Sequence[str | Path]) -> tuple[list[DatasetInfo], list[str]]:
    """The listed folders and stores that open, and a sentence for each that does not."""
    found, problems = [], []
    for source in sources:
        try:
            found.append(dataset_info(source))
        except (DatasetError, StoreError, OSError, pa.ArrowInvalid) as err:
            problems.append(str(err))
    return found, problems


def checked_folder(folder: Path, listed: Sequence[str | Path]) -> Path:
    """`folder` if it is one of the listed dataset folders (or inside one); the browser never names another."""
    resolved = folder.resolve()
    allowed = [Path(source) for source in listed if not is_store_uri(str(source))]
    if not any(resolved == place or resolved.is_relative_to(place) for place in allowed):
        raise DatasetError(f"{folder} is not a listed dataset folder; add it to `datasets` in explorer.toml.")
    return resolved


def _widths(folder: Path) -> dict[int, str]:
    """Each vector width in the folder and a file that has it."""
    seen: dict[int, str] = {}
    for fragment in _parquet(folder).get_fragments():
        lengths = pc.list_value_length(fragment.to_table(columns=[VECTOR_COLUMN]).column(VECTOR_COLUMN))
        for width in pc.unique(lengths).to_pylist():
            seen.setdefault(width, PurePath(fragment.path).name)
    return seen


def _vector_file(folder: Path, dims: int) -> Path:
    """The cache file of the folder's vectors, keyed by its files' names, sizes and times."""
    return cache_dir() / "datasets" / f"{texts_digest(_file_stats(folder), prefix=f'{folder}:{dims}'.encode())}.npy"


def open_dataset(source: str | Path, listed: Sequence[str | Path]) -> Dataset:
    """The dataset of a listed folder or store; its vectors are copied once into a cache file that is then
    memory-mapped."""
    if is_store_uri(str(source)):
        return _open_store(str(source), listed)
    folder = checked_folder(Path(source), listed)
    info = dataset_info(folder)
    if info.late:
        raise DatasetError(f"{folder} holds a late-interaction model's token vectors (one per token, not one a "
                           "text): open it on Retrieval, or embed the corpus with a dense model to map it.")
    parquet = _parquet(folder)
    if VECTOR_COLUMN not in parquet.schema.names or TEXT_COLUMN not in parquet.schema.names:
        raise DatasetError(f"{folder} needs a “{TEXT_COLUMN}” and a “{VECTOR_COLUMN}” column (it has "
                           f"{', '.join(parquet.schema.names)}).")
    widths = _widths(folder)
    if len(widths) != 1:
        raise DatasetError(f"The files of {folder} hold vectors of different dimensions ("
                           + ", ".join(f"{file}: {width}" for width, file in sorted(widths.items()))
                           + "); embed them again with one model and one --truncate-dim.")
    dims = next(iter(widths))
    target = _vector_file(folder, dims)
    if not target.exists():
        def write(tmp: Path) -> None:
            out = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=(info.rows, dims))
            start = 0
            for batch in parquet.to_batches(columns=[VECTOR_COLUMN]):
                values = pc.list_flatten(batch.column(0)).to_numpy(zero_copy_only=False)
                out[start:start + batch.num_rows] = values.reshape(batch.num_rows, dims)
                start += batch.num_rows
            out.flush()
        atomic_write(target, write)
    columns = [name for name in parquet.schema.names if name != VECTOR_COLUMN]
    return Dataset(info, parquet.to_table(columns=columns), np.load(target, mmap_mode="r"))


def _open_store(uri: str, listed: Sequence[str | Path]) -> Dataset:
    """A listed store read whole (its vectors into a cache file that is then memory-mapped, written again at each
    opening: a row replaced in place keeps the store's count): its row ids and metadata become the table's columns
    beside the texts."""
    if uri not in [str(source) for source in listed]:
        raise DatasetError(f"{parse_store_uri(uri).shown} is not a listed store; add it to `datasets` in "
                           "explorer.toml.")
    corpus = read_store(uri)
    info = DatasetInfo(parse_store_uri(uri).name, uri, len(corpus.texts), None, _store_version(uri, len(corpus.texts)))
    target = cache_dir() / "datasets" / f"{texts_digest([info.version], prefix=f'{uri}:store'.encode())}.npy"
    atomic_write(target, lambda tmp: np.save(tmp, np.asarray(corpus.vectors, dtype=np.float32)))
    table = pa.Table.from_pandas(pd.concat([pd.DataFrame({TEXT_COLUMN: corpus.texts}), corpus.metadata], axis=1),
                                 preserve_index=False)
    return Dataset(info, table, np.load(target, mmap_mode="r"))


def dataset_sample(dataset: Dataset, size: int, seed: int = 0,
                   among: np.ndarray | None = None) -> tuple[np.ndarray, pd.DataFrame, np.ndarray]:
    """A seeded sample of the dataset's rows, or of the rows `among` (all of them when there are `size` or fewer):
    their row numbers, their table (text first, metadata as text) and their vectors."""
    rows = sample_indices(len(dataset.vectors), limit=size, seed=seed) if among is None else \
        np.asarray(among)[sample_indices(len(among), limit=size, seed=seed)]
    whole = len(rows) == len(dataset.vectors)
    frame = (dataset.table if whole else dataset.table.take(pa.array(rows, pa.int64()))).to_pandas()
    frame = frame[[TEXT_COLUMN, *(c for c in frame.columns if c != TEXT_COLUMN)]]
    vectors = dataset.vectors if whole else np.asarray(dataset.vectors[rows], dtype=np.float32)
    return rows, frame.astype(str), vectors  # the whole dataset's vectors stay memory-mapped, not copied


@dataclass(frozen=True)
class LateDataset:
    """A late-interaction dataset: texts and metadata as an Arrow table, every token vector as one memory-mapped
    TokenMatrix (one copy per server), and the key its token vectors are stored under."""

    info: DatasetInfo
    table: pa.Table
    corpus: TokenMatrix
    key: str

    def texts(self, rows: Sequence[int]) -> list[str]:
        return [str(text) for text in self.table.column(TEXT_COLUMN).take(pa.array(rows, pa.int64())).to_pylist()]


def open_late_dataset(folder: Path, listed: Sequence[Path]) -> LateDataset:
    """The late-interaction dataset in a listed folder; its tokens and token vectors are copied once, a batch at a
    time, into a token-vector cache file that is then memory-mapped."""
    folder = checked_folder(folder, listed)
    info = dataset_info(folder)
    parquet = _parquet(folder)
    needed = (TEXT_COLUMN, TOKENS_COLUMN, TOKEN_VECTORS_COLUMN)
    if not info.late or any(name not in parquet.schema.names for name in needed):
        raise DatasetError(f"{folder} needs “{TEXT_COLUMN}”, “{TOKENS_COLUMN}” and “{TOKEN_VECTORS_COLUMN}” columns "
                           f"(it has {', '.join(parquet.schema.names)}).")
    key = texts_digest(_file_stats(folder), prefix=f"late:{folder}".encode())
    path = cache_dir() / "datasets" / f"{key}.tok"
    corpus = stored_file(path, key)
    if corpus is None:
        batches = parquet.to_batches(columns=[TOKENS_COLUMN, TOKEN_VECTORS_COLUMN])
        try:
            write_token_matrix(path, key, None, (matrix_of(batch) for batch in batches))
        except ValueError as err:  # TokenVectorsError, or widths that differ between files
            raise DatasetError(f"{folder}: {err}") from err
        corpus = stored_file(path, key)
        if corpus is None:
            raise DatasetError(f"The token vectors of {folder} did not read back from {path}; check the disk.")
    table = parquet.to_table(columns=[name for name in parquet.schema.names
                                      if name not in (TOKENS_COLUMN, TOKEN_VECTORS_COLUMN)])
    return LateDataset(info, table, corpus, key)

