"""A sparse model's vectors as files: a scipy CSR matrix (.npz, read by `scipy.sparse.load_npz`), or Parquet with
one row per text holding its active dimensions and their weights (`indices`, `values` list columns)."""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import scipy.sparse as sp

from core.data.rows import ROW_ID, text_row_ids
from core.data.vectors import TEXT_COLUMN

INDICES_COLUMN, VALUES_COLUMN = "indices", "values"


def sparse_columns(rows: sp.csr_matrix) -> tuple[pa.Array, pa.Array]:
    """Each row's active dimensions (int32) and weights (float32) as two list columns."""
    offsets = pa.array(rows.indptr.astype(np.int32))
    return (pa.ListArray.from_arrays(offsets, pa.array(rows.indices.astype(np.int32))),
            pa.ListArray.from_arrays(offsets, pa.array(rows.data.astype(np.float32))))


def sparse_parquet(texts: list[str], rows: sp.csr_matrix) -> bytes:
    indices, values = sparse_columns(rows)
    sink = io.BytesIO()
    pq.write_table(pa.table({ROW_ID: text_row_ids(texts), TEXT_COLUMN: texts, INDICES_COLUMN: indices,
                             VALUES_COLUMN: values}), sink)
    return sink.getvalue()


def rows_of(table: pa.Table, width: int) -> sp.csr_matrix:
    """The CSR matrix of a table's `indices` and `values` columns, `width` dimensions wide."""
    indices, values = (table.column(name).combine_chunks() for name in (INDICES_COLUMN, VALUES_COLUMN))
    indptr = np.asarray(indices.offsets, dtype=np.int64) - indices.offsets[0].as_py()
    return sp.csr_matrix((np.asarray(values.flatten(), np.float32), np.asarray(indices.flatten(), np.int32), indptr),
                         shape=(len(table), width))
