"""A Chroma collection (its embedded persistent client, a folder): `chroma://FOLDER/COLLECTION`, read with
`Collection.get` a page at a time. Chroma keeps the id, the document and the metadata of each row itself, so
`?text=`, `?vector=` and `?id=` do not apply. Its telemetry is off: nothing leaves the machine."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import chromadb
import numpy as np
from chromadb.config import Settings
from chromadb.errors import NotFoundError

from core.data.stores import StoreError, StoreUri
from core.data.stores.reading import StoredRows


def _client(uri: StoreUri):
    return chromadb.PersistentClient(path=uri.location, settings=Settings(anonymized_telemetry=False))


def _collection(uri: StoreUri):
    if not Path(uri.location).is_dir():
        raise StoreError(f"{uri.shown}: there is no Chroma folder at {uri.location}.")
    try:
        return _client(uri).get_collection(uri.name, embedding_function=None)
    except NotFoundError as err:
        raise StoreError(f"{uri.shown}: the folder holds no collection named {uri.name!r}.") from err


def count(uri: StoreUri) -> int:
    return _collection(uri).count()


def chunks(uri: StoreUri, *, limit: int | None, chunk: int) -> Iterator[StoredRows]:
    collection = _collection(uri)
    total = collection.count() if limit is None else min(limit, collection.count())
    for offset in range(0, total, chunk):
        got = collection.get(limit=min(chunk, total - offset), offset=offset,
                             include=["embeddings", "documents", "metadatas"])
        metadatas = [meta or {} for meta in got["metadatas"] or []]
        keys = list(dict.fromkeys(key for meta in metadatas for key in meta))
        yield StoredRows(list(got["ids"]), [text or "" for text in got["documents"] or []],
                         np.asarray(got["embeddings"], dtype=np.float32),
                         {key: [meta.get(key) for meta in metadatas] for key in keys})


def write(uri: StoreUri, rows: StoredRows, *, overwrite: bool) -> None:
    Path(uri.location).mkdir(parents=True, exist_ok=True)
    client = _client(uri)
    writing = f"{uri.name}-writing-{secrets.token_hex(4)}"  # renamed into place once whole
    collection = client.create_collection(writing, embedding_function=None)
    metadatas = [dict(zip(rows.metadata, values)) for values in zip(*rows.metadata.values())] or None
    batch = client.get_max_batch_size()
    try:
        for start in range(0, len(rows.texts), batch):
            end = start + batch
            collection.add(ids=rows.ids[start:end], documents=rows.texts[start:end], embeddings=rows.vectors[start:end],
                           metadatas=None if metadatas is None else metadatas[start:end])
    except BaseException:  # an error or Ctrl-C: no half-written collection is left, an old one stays whole
        client.delete_collection(writing)
        raise
    if overwrite and uri.name in {found.name for found in client.list_collections()}:
        client.delete_collection(uri.name)
    collection.modify(name=uri.name)
