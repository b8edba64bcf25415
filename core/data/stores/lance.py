"""A LanceDB table (an embedded folder): `lancedb://FOLDER/TABLE`, read through LanceDB's own scan in record batches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import lancedb
import numpy as np
import pyarrow as pa

from core.data.stores import StoreError, StoreUri
from core.data.stores.reading import StoredRows


def _table(uri: StoreUri):
    if not Path(uri.location).is_dir():
        raise StoreError(f"{uri.shown}: there is no LanceDB folder at {uri.location}.")
    try:
        return lancedb.connect(uri.location).open_table(uri.name)
    except ValueError as err:
        raise StoreError(f"{uri.shown}: the folder holds no table named {uri.name!r}.") from err


def count(uri: StoreUri) -> int:
    return _table(uri).count_rows()


def chunks(uri: StoreUri, *, limit: int | None, chunk: int) -> Iterator[StoredRows]:
    table = _table(uri)
    names = table.schema.names
    for column in (uri.text, uri.vector):
        if column not in names:
            raise StoreError(f"{uri.shown} has no column {column!r} (it has {', '.join(names)}); name the column with "
                             f"?{'text' if column == uri.text else 'vector'}=COLUMN.")
    own = uri.id if uri.id in names else None
    rest = [name for name in names if name not in (uri.text, uri.vector, own)]
    for batch in table.search().limit(limit).select(names).to_batches(chunk):
        vectors = batch.column(uri.vector)
        width = vectors.type.list_size if pa.types.is_fixed_size_list(vectors.type) else None
        if width is None or vectors.null_count:
            rows = vectors.to_pylist()
            if None in rows or len({len(row) for row in rows}) > 1:
                raise StoreError(f"The vectors in {uri.vector!r} of {uri.shown} are not all of one length.")
            array = np.asarray(rows, dtype=np.float32)
        else:
            array = vectors.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, width)
        yield StoredRows([str(value) for value in batch.column(own).to_pylist()] if own else [],
                         [str(text) for text in batch.column(uri.text).to_pylist()], array,
                         {name: batch.column(name).to_pylist() for name in rest})


def write(uri: StoreUri, rows: StoredRows, *, overwrite: bool) -> None:
    Path(uri.location).mkdir(parents=True, exist_ok=True)
    width = rows.vectors.shape[1]
    table = pa.table({uri.id: rows.ids, uri.text: rows.texts,
                      uri.vector: pa.FixedSizeListArray.from_arrays(pa.array(rows.vectors.reshape(-1)), width),
                      **{key: pa.array(values, pa.string()) for key, values in rows.metadata.items()}})
    lancedb.connect(uri.location).create_table(uri.name, table, mode="overwrite" if overwrite else "create")
