"""A late-interaction model's token vectors as Parquet: one row per text with its `tokens` (the scored tokens as
strings) and its `token_vectors` (a list of float32 lists, one per token), as `python -m core embed` writes them
locally and with Ray; and back, a batch at a time, as the rows of a TokenMatrix."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from core.data.rows import ROW_ID, text_row_ids
from core.data.vectors import TEXT_COLUMN
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors

TOKENS_COLUMN, TOKEN_VECTORS_COLUMN = "tokens", "token_vectors"
LATE_SCHEMA = pa.schema([(TOKENS_COLUMN, pa.list_(pa.string())),
                         (TOKEN_VECTORS_COLUMN, pa.list_(pa.list_(pa.float32())))])
ROWS_PER_GROUP = 4096  # texts per Parquet row group: list offsets stay small, a reader takes a group at a time


class TokenVectorsError(ValueError):
    """Token-vector columns that do not form one text's tokens and vectors per row, in one sentence."""


def late_columns(texts: Sequence[TokenVectors], width: int) -> list[pa.Array]:
    """The texts' `tokens` and `token_vectors` columns, built from one flat float32 array (no list per token)."""
    matrix = TokenMatrix.of(texts, width)
    per_token = pa.ListArray.from_arrays(pa.array(np.arange(matrix.token_count + 1, dtype=np.int32) * width),
                                         pa.array(matrix.vectors.ravel()))
    text_offsets = pa.array(matrix.offsets.astype(np.int32))
    return [pa.array([list(text.tokens) for text in texts], LATE_SCHEMA.field(TOKENS_COLUMN).type),
            pa.ListArray.from_arrays(text_offsets, per_token)]


def late_parquet(path: str, texts: Sequence[str], token_vectors: Sequence[TokenVectors], width: int) -> None:
    """One row per text: `row_id`, `text`, `tokens`, `token_vectors`."""
    schema = pa.schema([(ROW_ID, pa.string()), (TEXT_COLUMN, pa.string()), *LATE_SCHEMA])
    ids = text_row_ids(texts)
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, max(len(texts), 1), ROWS_PER_GROUP):
            part = token_vectors[start:start + ROWS_PER_GROUP]
            rows = slice(start, start + ROWS_PER_GROUP)
            writer.write_table(pa.Table.from_arrays([pa.array(ids[rows], pa.string()),
                                                     pa.array(texts[rows], pa.string()),
                                                     *late_columns(part, width)], schema=schema))


def _flat_list(column: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """A list column's values and each row's offsets into them, from 0."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    offsets = np.asarray(array.offsets, np.int64)
    return array.values.slice(int(offsets[0]), int(offsets[-1] - offsets[0])), offsets - offsets[0]


def matrix_of(batch: pa.RecordBatch | pa.Table, width: int | None = None) -> TokenMatrix:
    """A batch's `tokens` and `token_vectors` columns as a TokenMatrix (no expansion or prompt marks: the file
    does not keep them)."""
    per_token, offsets = _flat_list(batch.column(TOKEN_VECTORS_COLUMN))
    values, token_offsets = _flat_list(per_token)
    lengths = np.diff(token_offsets)
    found = int(lengths[0]) if len(lengths) else (width or 0)
    if np.any(lengths != found) or (width is not None and len(lengths) and found != width):
        widths = sorted({int(w) for w in np.unique(lengths)} | ({width} if width is not None else set()))
        raise TokenVectorsError(f"The token vectors are of different widths ({', '.join(map(str, widths))}); embed "
                                "the texts again with one model.")
    strings, token_starts = _flat_list(batch.column(TOKENS_COLUMN))
    if not np.array_equal(token_starts, offsets):
        raise TokenVectorsError("A row's tokens and token vectors differ in number; embed the texts again.")
    strings = pc.cast(strings, pa.string())
    bounds = np.frombuffer(strings.buffers()[1], np.int32)[strings.offset:strings.offset + len(strings) + 1]
    data = np.frombuffer(strings.buffers()[2], np.uint8) if strings.buffers()[2] is not None else np.zeros(0, np.uint8)
    vectors = (np.asarray(values.to_numpy(zero_copy_only=False), np.float32).reshape(-1, found) if found
               else np.zeros((0, width or 0), np.float32))
    return TokenMatrix(vectors, offsets, np.zeros(len(vectors), np.uint8), np.zeros(len(offsets) - 1, bool),
                       data[int(bounds[0]):int(bounds[-1])], (bounds - bounds[0]).astype(np.int64))
