"""Vectors in and out: a corpus's embeddings with its texts and metadata as .npy, as Parquet (one row per text, a
`vector` list column: the layout Embedding Atlas opens with `embedding-atlas FILE --vector vector`) and as the
TensorFlow Embedding Projector's two TSV files; and back, with every check a file can fail as one sentence."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import PurePath

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from core.data.corpus import CorpusError
from core.data.rows import ROW_ID
from core.data.uploads import check_size, decode_text

VECTOR_COLUMN, TEXT_COLUMN = "vector", "text"
PROJECTOR_BREAKS = r"[\t\r\n]"  # a tab or a line break would split a field or a line of a Projector file


@dataclass(frozen=True)
class VectorCorpus:
    """Precomputed vectors (rows, dims) with one text per row and any metadata columns."""

    texts: list[str]
    vectors: np.ndarray
    metadata: pd.DataFrame

    def __post_init__(self) -> None:
        rows = len(self.vectors)
        if self.vectors.ndim != 2 or self.vectors.shape[1] == 0:
            raise CorpusError(f"The vectors must form a table of rows by dimensions, not shape {self.vectors.shape}.")
        if len(self.texts) != rows:
            raise CorpusError(f"There are {rows:,} vectors but {len(self.texts):,} texts; give one text per vector "
                              "(the same rows, in the same order).")
        bad = int((~np.isfinite(self.vectors)).any(axis=1).sum())
        if bad:
            raise CorpusError(f"{bad:,} vector(s) hold NaN or infinite values; fix or remove those rows.")


def to_parquet(corpus: VectorCorpus) -> bytes:
    """`row_id` first where the metadata holds it, then `text`, `vector` and the rest of the metadata."""
    meta = {str(name): corpus.metadata[name].astype(str).tolist() for name in corpus.metadata.columns}
    first = {ROW_ID: meta.pop(ROW_ID)} if ROW_ID in meta else {}
    table = pa.table({**first, TEXT_COLUMN: corpus.texts,
                      VECTOR_COLUMN: pa.array(list(corpus.vectors.astype(np.float32)), type=pa.list_(pa.float32())),
                      **meta})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def to_npy(corpus: VectorCorpus) -> bytes:
    sink = io.BytesIO()
    np.save(sink, corpus.vectors.astype(np.float32))
    return sink.getvalue()


def to_projector(corpus: VectorCorpus) -> tuple[str, str]:
    """The Projector's vectors.tsv (no header) and metadata.tsv (a header row when there is more than the text).
    The Projector splits each line on tabs and unquotes nothing, so no field is quoted: tabs and line breaks
    become spaces, a missing value is left empty and every other character is written as it is."""
    vectors = "\n".join("\t".join(f"{value:.7g}" for value in row) for row in corpus.vectors) + "\n"
    meta = pd.concat([pd.DataFrame({TEXT_COLUMN: corpus.texts}), corpus.metadata.reset_index(drop=True)], axis=1)
    names = meta.columns.astype(str).str.replace(PROJECTOR_BREAKS, " ", regex=True).tolist()
    rows = meta.astype(str).fillna("").replace({PROJECTOR_BREAKS: " "}, regex=True).to_numpy().tolist()
    return vectors, "".join("\t".join(row) + "\n" for row in ([names] if len(names) > 1 else []) + rows)


def from_parquet(name: str, data: bytes) -> VectorCorpus:
    try:
        table = pq.read_table(io.BytesIO(data))
    except (pa.ArrowInvalid, OSError) as err:
        raise CorpusError(f"{name} could not be read as Parquet ({str(err).splitlines()[0]}).") from err
    lists = [f.name for f in table.schema if pa.types.is_list(f.type) or pa.types.is_fixed_size_list(f.type)]
    if not lists:
        raise CorpusError(f"{name} has no column of vectors (a list of numbers per row); name one “vector”.")
    vector_column = VECTOR_COLUMN if VECTOR_COLUMN in lists else lists[0]
    frame = table.drop_columns([vector_column]).to_pandas()
    rows = table.column(vector_column).to_pylist()
    widths = {len(row) for row in rows if row is not None}
    if None in rows or len(widths) > 1:
        raise CorpusError(f"The vectors in “{vector_column}” do not all have the same number of dimensions "
                          f"({sorted(widths)[:4]}); every row needs one vector of the same length.")
    texts_column = TEXT_COLUMN if TEXT_COLUMN in frame.columns else next(
        (c for c in frame.columns if frame[c].dtype == object), None)
    texts = frame[texts_column].astype(str).tolist() if texts_column else [f"row {i}" for i in range(len(rows))]
    metadata = frame.drop(columns=[texts_column]) if texts_column else frame
    return VectorCorpus(texts, np.asarray(rows, dtype=np.float32), metadata.astype(str))


def from_npy(name: str, data: bytes, texts: list[str]) -> VectorCorpus:
    try:
        vectors = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError) as err:
        raise CorpusError(f"{name} is not a NumPy .npy array of numbers ({err}).") from err
    if not np.issubdtype(vectors.dtype, np.number):
        raise CorpusError(f"{name} holds {vectors.dtype} values, not numbers.")
    return VectorCorpus(texts, np.asarray(vectors, dtype=np.float32), pd.DataFrame(index=range(len(texts))))


def projector_lines(text: str) -> list[str]:
    """A Projector file's lines as the Projector splits them: at a newline only (a text may hold U+2028 or a form
    feed, which str.splitlines would also split at), a final newline ending the last line."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines


def from_projector(vectors_name: str, vectors_data: bytes, metadata_name: str, metadata_data: bytes) -> VectorCorpus:
    text = decode_text(vectors_name, vectors_data)
    try:
        vectors = np.array([[float(v) for v in line.split("\t")] for line in text.splitlines() if line.strip()],
                           dtype=np.float32)
    except ValueError as err:
        raise CorpusError(f"{vectors_name} must hold tab-separated numbers, one vector a line ({err}).") from err
    except TypeError as err:
        raise CorpusError(f"{vectors_name}: the lines do not all have the same number of values.") from err
    lines = projector_lines(decode_text(metadata_name, metadata_data))
    if lines and "\t" in lines[0]:
        try:  # no quoting, as the Projector reads it: a quote is part of its text
            meta = pd.read_csv(io.StringIO("\n".join(lines)), sep="\t", dtype=str, keep_default_na=False,
                               quoting=csv.QUOTE_NONE)
        except pd.errors.ParserError as err:
            raise CorpusError(f"{metadata_name} has a line with more tab-separated values than its header row "
                              f"({err}); give every line one value per column.") from err
        texts_column = TEXT_COLUMN if TEXT_COLUMN in meta.columns else meta.columns[0]
        return VectorCorpus(meta[texts_column].tolist(), vectors, meta.drop(columns=[texts_column]))
    return VectorCorpus([line for line in lines], vectors, pd.DataFrame(index=range(len(lines))))


VECTOR_FILE_TYPES = ("parquet", "npy", "txt", "tsv")
FILES_HINT = ("Upload a .parquet file with a vector column, or a .npy array with a .txt file of its texts (one a "
              "line), or the Embedding Projector's vectors.tsv with its metadata.tsv.")


def read_vector_files(files: list[tuple[str, bytes]]) -> VectorCorpus:
    """A vector corpus from the files a user uploaded together; CorpusError says what to upload instead."""
    for name, data in files:
        check_size(name, len(data))
    by_format: dict[str, list[tuple[str, bytes]]] = {}
    for name, data in files:
        by_format.setdefault(PurePath(name).suffix.lower().lstrip("."), []).append((name, data))
    if list(by_format) == ["parquet"] and len(files) == 1:
        return from_parquet(*files[0])
    if sorted(by_format) == ["npy", "txt"] and len(files) == 2:
        (npy_name, npy_data), (txt_name, txt_data) = by_format["npy"][0], by_format["txt"][0]
        texts = decode_text(txt_name, txt_data).split("\n")
        return from_npy(npy_name, npy_data, texts[:-1] if texts and texts[-1] == "" else texts)
    if list(by_format) == ["tsv"] and len(files) == 2:
        meta, vectors = sorted(files, key=lambda file: "meta" not in file[0].lower())
        return from_projector(vectors[0], vectors[1], meta[0], meta[1])
    raise CorpusError(f"These files ({', '.join(name for name, _ in files)}) are not a vector corpus. {FILES_HINT}")
