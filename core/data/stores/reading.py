"""Reading a store in chunks into one VectorCorpus, and writing one: the modules of core.data.stores (one a store)
each give `count`, `chunks` and `write`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.data.rows import ROW_ID
from core.data.stores import CLIENTS, StoreError, StoreUri, parse_store_uri
from core.data.vectors import VectorCorpus

CHUNK = 10_000  # rows a reader asks for at once


@dataclass
class StoredRows:
    """One chunk read from a store: ids (empty where the store has none), texts, vectors (rows, dims), metadata."""

    ids: list[str]
    texts: list[str]
    vectors: np.ndarray
    metadata: dict[str, list] = field(default_factory=dict)


def store_module(uri: StoreUri):
    """The module of `uri`'s store (core.data.stores.NAME), after checking that its client is installed."""
    try:
        importlib.import_module(CLIENTS[uri.module])
    except ImportError as err:
        raise StoreError(f"{uri.shown} needs the vector stores' clients, an optional extra: run "
                         "`make stores`.") from err
    return importlib.import_module(f"core.data.stores.{uri.module}")


def store_count(uri: str) -> int:
    """The store's rows, counted by the store (StoreError where it does not open)."""
    parsed = parse_store_uri(uri)
    return store_module(parsed).count(parsed)


def read_store(uri: str, *, limit: int | None = None, chunk: int = CHUNK) -> VectorCorpus:
    """The store's rows as one corpus, in the store's order (the order written, for a table this project wrote), each
    row's id as its `row_id`; chunks are copied into one array as they come, never held twice."""
    parsed = parse_store_uri(uri)
    module = store_module(parsed)
    total = module.count(parsed) if limit is None else min(limit, module.count(parsed))
    vectors: np.ndarray | None = None
    ids: list[str] = []
    texts: list[str] = []
    metadata: dict[str, list] = {}
    for rows in module.chunks(parsed, limit=limit, chunk=chunk):
        if vectors is None:
            vectors = np.empty((total, rows.vectors.shape[1]), dtype=np.float32)
        if rows.vectors.shape[1] != vectors.shape[1]:
            raise StoreError(f"The vectors of {parsed.shown} do not all have one width ({vectors.shape[1]} and "
                             f"{rows.vectors.shape[1]}); every row needs one vector of the same length.")
        vectors[len(texts):len(texts) + len(rows.texts)] = rows.vectors
        ids.extend(rows.ids or [f"row {len(ids) + i}" for i in range(len(rows.texts))])
        texts.extend(rows.texts)
        for key, values in rows.metadata.items():
            metadata.setdefault(key, []).extend(values)
    if vectors is None or not texts:
        raise StoreError(f"{parsed.shown} holds no rows.")
    frame = pd.DataFrame({ROW_ID: ids, **{key: [_plain(v) for v in values] for key, values in metadata.items()}})
    return VectorCorpus(texts, vectors[:len(texts)], frame.astype(str))


def _plain(value: object) -> object:
    return "" if value is None else value


def store_table(uri: str) -> pd.DataFrame:
    """The store's rows as a table: `text`, `row_id` and its metadata columns (as text), as a file's table is read."""
    corpus = read_store(uri)
    return pd.concat([pd.DataFrame({"text": corpus.texts}), corpus.metadata], axis=1)


def check_writable(uri: str, *, overwrite: bool) -> StoreUri:
    """The parsed URI, where a table or collection may be written there: StoreError where one exists and
    `overwrite` is not given (checked before any work that would be lost)."""
    parsed = parse_store_uri(uri)
    if not overwrite and _exists(store_module(parsed), parsed):
        raise StoreError(f"{parsed.shown} exists already; give --overwrite to replace it, or name a new one.")
    return parsed


def _exists(module, uri: StoreUri) -> bool:
    """Whether the table or collection is there to be read (counted)."""
    try:
        module.count(uri)
    except StoreError:
        return False
    return True


def write_store(uri: str, corpus: VectorCorpus, *, overwrite: bool = False) -> None:
    """`corpus` as a new table or collection (row ids, texts, vectors, metadata as text); StoreError where it exists
    and `overwrite` is not given."""
    parsed = check_writable(uri, overwrite=overwrite)
    module = store_module(parsed)
    meta = corpus.metadata.drop(columns=[ROW_ID], errors="ignore").astype(str)
    ids = (corpus.metadata[ROW_ID].astype(str).tolist() if ROW_ID in corpus.metadata.columns
           else [f"row {i}" for i in range(len(corpus.texts))])
    module.write(parsed, StoredRows(ids, list(corpus.texts), np.asarray(corpus.vectors, dtype=np.float32),
                                    {str(c): meta[c].tolist() for c in meta.columns}), overwrite=overwrite)
