"""Uploaded files: size check, UTF-8 decoding, and parsing .txt / .csv / .jsonl / .parquet into a table of strings.

Every failure is a `CorpusError` whose message is one sentence with the way forward.
"""

from __future__ import annotations

import io
import json
from pathlib import PurePath
from typing import Protocol

import pandas as pd

from core.data.corpus import CorpusError, lines
from core.deployment import load_config

UPLOAD_TYPES = ("txt", "csv", "jsonl", "parquet")
TEXT_COLUMN = "text"


class Upload(Protocol):
    """What the pages get from st.file_uploader (and what tests fake): a name, a size, the bytes."""

    name: str
    size: int

    def getvalue(self) -> bytes: ...


def check_size(name: str, size: int, limit_mb: int | None = None) -> None:
    limit_mb = load_config().max_upload_mb if limit_mb is None else limit_mb
    if size > limit_mb * 2**20:
        raise CorpusError(f"{name} is {size / 2**20:,.0f} MB, over the {limit_mb} MB upload limit; "
                          "upload a smaller file or split it.")


def decode_text(name: str, data: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped); binary files and other encodings are refused."""
    if b"\x00" in data[:8192]:
        raise CorpusError(f"{name} looks like a binary file, not text; upload a .txt, .csv or .jsonl file.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise CorpusError(f"{name} is not UTF-8 text (byte {err.start} cannot be decoded); "
                          "save it as UTF-8 and upload it again.") from err


def parse_table(name: str, text: str) -> pd.DataFrame:
    """A .txt file becomes one `text` column; .csv and .jsonl keep their columns, every value a string."""
    file_format = PurePath(name).suffix.lower().lstrip(".")
    if file_format == "txt":
        return pd.DataFrame({TEXT_COLUMN: lines(text)})
    try:
        if file_format == "csv":
            frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        elif file_format == "jsonl":
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
            if not all(isinstance(row, dict) for row in rows):
                raise CorpusError(f"{name}: every line of a .jsonl file must be a JSON object like "
                                  '{"text": "..."}.')
            frame = pd.DataFrame(rows, dtype=object).fillna("").astype(str)
        else:
            raise CorpusError(f"{name} is a .{file_format or '?'} file; upload a .txt, .csv or .jsonl file.")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, json.JSONDecodeError) as err:
        raise CorpusError(f"{name} could not be read as .{file_format} ({str(err).splitlines()[0]}); "
                          "check the file's format.") from err
    return frame


def read_table(name: str, data: bytes) -> pd.DataFrame:
    """A .txt, .csv, .jsonl or .parquet file as a table of strings (a Parquet file's columns of single values; its
    lists, such as vectors, left out)."""
    if PurePath(name).suffix.lower() != ".parquet":
        return parse_table(name, decode_text(name, data))
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(io.BytesIO(data))
    except (pa.ArrowInvalid, OSError) as err:
        raise CorpusError(f"{name} could not be read as Parquet ({str(err).splitlines()[0]}); check the file's "
                          "format.") from err
    kept = [field.name for field in table.schema if not pa.types.is_nested(field.type)]
    return table.select(kept).to_pandas().fillna("").astype(str)


def read_upload(upload: Upload) -> pd.DataFrame:
    """Check the size before reading, then read the file into a table of strings."""
    check_size(upload.name, upload.size)
    return read_table(upload.name, upload.getvalue())


def text_columns(frame: pd.DataFrame) -> list[str]:
    """Columns to offer in the picker, `text` first when there is one."""
    columns = [str(c) for c in frame.columns]
    return sorted(columns, key=lambda c: c != TEXT_COLUMN)


def column(frame: pd.DataFrame, name: str) -> list[str]:
    if name not in frame.columns:
        found = ", ".join(map(str, frame.columns)) or "none"
        raise CorpusError(f"There is no column '{name}'; the columns found are: {found}. Pick one of them.")
    return [str(v) for v in frame[name]]


def query_pairs(frame: pd.DataFrame, query_column: str, relevant_column: str) -> dict[str, set[str]]:
    """Query text -> the set of its relevant texts, from a two-column table (one row per pair)."""
    pairs: dict[str, set[str]] = {}
    for query, doc in zip(column(frame, query_column), column(frame, relevant_column)):
        if query.strip() and doc.strip():
            pairs.setdefault(query.strip(), set()).add(doc.strip())
    if not pairs:
        raise CorpusError(f"No row has both a '{query_column}' and a '{relevant_column}'; "
                          "each row needs a query and one relevant text.")
    limit = load_config().max_eval_queries
    if len(pairs) > limit:
        raise CorpusError(f"The file has {len(pairs):,} distinct queries, over the limit of {limit:,} "
                          "(max_eval_queries in explorer.toml); use a smaller sample of queries.")
    return pairs
