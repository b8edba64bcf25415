"""The input files of a scaled embedding run: a path or glob on any filesystem pyarrow reads, each file checked
before any work starts (a text column, UTF-8 text), with its row count, the columns its output keeps and the output
folder it gets."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import PurePosixPath

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from core.data.corpus import NoTexts
from core.data.vectors import TEXT_COLUMN, VECTOR_COLUMN

FORMATS = {".txt": "text", ".parquet": "parquet"}
PATH_COLUMN = "path"  # Ray Data's readers name each row's file in this column
TEXT_SCHEMA = pa.schema([(TEXT_COLUMN, pa.string())])


@dataclass(frozen=True)
class InputFile:
    path: str  # as the filesystem names it
    file_format: str  # "text" (one text a line) or "parquet"
    name: str  # of its output folder
    rows: int
    schema: pa.Schema  # the columns its output keeps, in its order, the texts named TEXT_COLUMN


def filesystem(location: str) -> tuple[pafs.FileSystem, str]:
    """The filesystem and the path on it for a local path (made absolute: Ray's workers have other working
    folders) or a URI (s3://, gs://, hdfs://, file://)."""
    if "://" in location:
        return pafs.FileSystem.from_uri(location)
    return pafs.LocalFileSystem(), str(PurePosixPath(os.path.abspath(location)))


def _matches(fs: pafs.FileSystem, pattern: str) -> list[str]:
    if not any(ch in pattern for ch in "*?["):
        return [pattern] if fs.get_file_info(pattern).type == pafs.FileType.File else []
    parts = PurePosixPath(pattern).parts
    fixed = next(i for i, part in enumerate(parts) if any(ch in part for ch in "*?["))
    base = str(PurePosixPath(*parts[:fixed])) if fixed else "."
    if fs.get_file_info(base).type != pafs.FileType.Directory:
        return []
    found = fs.get_file_info(pafs.FileSelector(base, recursive="**" in pattern or len(parts) - fixed > 1))
    return sorted(info.path for info in found
                  if info.type == pafs.FileType.File and fnmatch.fnmatch(info.path, pattern))


def _checked_parquet(fs: pafs.FileSystem, path: str, text_column: str) -> tuple[int, pa.Schema]:
    """The row count and output schema of a Parquet file whose text column exists, holds strings and no empty cell
    (by the row groups' statistics: no data is read)."""
    schema = pq.read_schema(path, filesystem=fs).remove_metadata()
    if text_column not in schema.names:
        raise ValueError(f"{path} has no column “{text_column}” (its columns: {', '.join(schema.names)}); name the "
                         "text column with --text-column.")
    if text_column != TEXT_COLUMN and TEXT_COLUMN in schema.names:
        raise ValueError(f"{path} has a column “{TEXT_COLUMN}” beside the text column “{text_column}”; the output "
                         f"names the texts “{TEXT_COLUMN}”, so rename one of them.")
    if VECTOR_COLUMN in schema.names:
        raise ValueError(f"{path} already has a column “{VECTOR_COLUMN}”, which the output would overwrite; rename it.")
    if PATH_COLUMN in schema.names:
        raise ValueError(f"{path} has a column “{PATH_COLUMN}”, the name Ray Data gives each row's file; rename it.")
    column_type = schema.field(text_column).type
    if not (pa.types.is_string(column_type) or pa.types.is_large_string(column_type)):
        raise ValueError(f"The column “{text_column}” of {path} holds {column_type}, not text.")
    with fs.open_input_file(path) as handle:
        meta = pq.ParquetFile(handle).metadata
        chunks = [group.column(c) for group in map(meta.row_group, range(meta.num_row_groups))
                  for c in range(group.num_columns) if group.column(c).path_in_schema == text_column]
        nulls = sum(chunk.statistics.null_count or 0 for chunk in chunks if chunk.statistics is not None)
    if nulls:
        raise ValueError(f"{nulls:,} row(s) of {path} have no text in “{text_column}”; fill or remove them.")
    renamed = schema.set(schema.get_field_index(text_column), pa.field(TEXT_COLUMN, column_type))
    return meta.num_rows, renamed


def _line_count(fs: pafs.FileSystem, path: str) -> int:
    """Lines as Ray Data's read_text splits them (str.splitlines, empty lines kept)."""
    with fs.open_input_stream(path) as stream:
        data = stream.read()
    try:
        return len(data.decode("utf-8").splitlines())
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not UTF-8 text ({err.reason} at byte {err.start}).") from err


def _same_column_types(files: list[InputFile]) -> None:
    """Ray Data joins rows of different files into one batch, so a column two files share must hold one type."""
    seen: dict[str, tuple[pa.DataType, str]] = {}
    for file in files:
        for field in file.schema:
            column_type, first = seen.setdefault(field.name, (field.type, file.path))
            if column_type != field.type:
                raise ValueError(f"The column “{field.name}” holds {column_type} in {first} but {field.type} in "
                                 f"{file.path}; give the files one type for it, or embed them in separate runs.")


def input_files(location: str, text_column: str) -> tuple[pafs.FileSystem, list[InputFile]]:
    """Every .txt and .parquet file `location` names, in path order; ValueError says what is wrong with them, NoTexts
    that none of them holds a row (an empty file among others still gets its empty output folder)."""
    fs, pattern = filesystem(location)
    paths = _matches(fs, pattern)
    if not paths:
        raise ValueError(f"No file matches {location}; give a .txt file (one text a line), a Parquet file with a "
                         "text column, or a glob such as 'texts/*.parquet'.")
    files: list[InputFile] = []
    names: dict[str, str] = {}
    for path in paths:
        suffix = PurePosixPath(path).suffix.lower()
        if suffix not in FORMATS:
            raise ValueError(f"{path} is neither .txt (one text a line) nor .parquet; narrow the glob to those files.")
        name = PurePosixPath(path).stem
        if name in names:
            raise ValueError(f"{names[name]} and {path} would write the same output folder “{name}”; give the input "
                             "files different names.")
        names[name] = path
        if FORMATS[suffix] == "parquet":
            rows, schema = _checked_parquet(fs, path, text_column)
        else:
            rows, schema = _line_count(fs, path), TEXT_SCHEMA
        files.append(InputFile(path, FORMATS[suffix], name, rows, schema))
    if not any(file.rows for file in files):  # before Ray starts or the output folder is made
        raise NoTexts(location)
    _same_column_types(files)
    return fs, files
