"""A Qdrant collection, in local mode (a folder: `qdrant://FOLDER/COLLECTION`) or on a server
(`qdrant+http://HOST:PORT/COLLECTION`), read with `scroll` a page at a time. The text and id are payload keys
(`?text=`, `?id=`); a collection with named vectors takes `?vector=NAME`. A collection this project writes uses dot
product, so vectors are kept as given (Qdrant scales each vector of a cosine collection to unit length), and each
row's place as its point id, so a scroll reads the rows in the order written. A write that fails leaves no collection
behind (Qdrant renames none, so an old collection being replaced is gone by then)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from qdrant_client import QdrantClient, models

from core.data.stores import StoreError, StoreUri
from core.data.stores.reading import StoredRows

TIMEOUT = 10  # seconds a server has to answer
BATCH = 1_000  # points written at once


def _client(uri: StoreUri) -> QdrantClient:
    if uri.scheme == "qdrant+http":
        return QdrantClient(url=uri.location, timeout=TIMEOUT, check_compatibility=False)
    if not Path(uri.location).is_dir():
        raise StoreError(f"{uri.shown}: there is no Qdrant folder at {uri.location}.")
    try:
        return QdrantClient(path=uri.location)
    except RuntimeError as err:  # local mode locks its folder: another process has it open
        raise StoreError(f"{uri.shown}: the folder is open in another process (Qdrant's local mode allows one); "
                         "close it there, or serve the folder with a Qdrant server.") from err


def _checked(client: QdrantClient, uri: StoreUri) -> None:
    try:
        found = client.collection_exists(uri.name)
    except Exception as err:  # the client's own connection errors vary (httpx, grpc): any is "no answer"
        raise StoreError(f"{uri.shown}: the Qdrant server did not answer within {TIMEOUT} s ({type(err).__name__}); "
                         "check that it runs at that address.") from err
    if not found:
        raise StoreError(f"{uri.shown}: there is no collection named {uri.name!r}.")


def count(uri: StoreUri) -> int:
    client = _client(uri)
    try:
        _checked(client, uri)
        return client.count(uri.name, exact=True).count
    finally:
        client.close()


def _vector(point: models.Record, uri: StoreUri) -> list[float]:
    vector: Any = point.vector
    if isinstance(vector, dict):
        if uri.vector not in vector:
            raise StoreError(f"{uri.shown} has no vector named {uri.vector!r} (it has {', '.join(vector)}); name it "
                             "with ?vector=NAME.")
        vector = vector[uri.vector]
    if not isinstance(vector, list) or (vector and not isinstance(vector[0], float)):
        raise StoreError(f"{uri.shown}: its vectors are not one dense vector a point (sparse or multi-vector).")
    return vector


def chunks(uri: StoreUri, *, limit: int | None, chunk: int) -> Iterator[StoredRows]:
    client = _client(uri)
    try:
        _checked(client, uri)
        offset, read = None, 0
        while limit is None or read < limit:
            size = chunk if limit is None else min(chunk, limit - read)
            points, offset = client.scroll(uri.name, limit=size, offset=offset, with_payload=True, with_vectors=True)
            if not points:
                return
            payloads = [dict(point.payload or {}) for point in points]
            ids = [str(payload.pop(uri.id, point.id)) for payload, point in zip(payloads, points)]
            texts = [str(payload.pop(uri.text, "")) for payload in payloads]
            keys = list(dict.fromkeys(key for payload in payloads for key in payload))
            yield StoredRows(ids, texts, np.asarray([_vector(point, uri) for point in points], dtype=np.float32),
                             {key: [payload.get(key) for payload in payloads] for key in keys})
            read += len(points)
            if offset is None:
                return
    finally:
        client.close()


def write(uri: StoreUri, rows: StoredRows, *, overwrite: bool) -> None:
    if uri.scheme != "qdrant+http":
        Path(uri.location).mkdir(parents=True, exist_ok=True)
    client = _client(uri)
    try:
        if overwrite and client.collection_exists(uri.name):
            client.delete_collection(uri.name)
        client.create_collection(uri.name, vectors_config=models.VectorParams(size=rows.vectors.shape[1],
                                                                               distance=models.Distance.DOT))
        try:
            for start in range(0, len(rows.texts), BATCH):
                client.upsert(uri.name, points=[
                    models.PointStruct(id=place, vector=rows.vectors[place].tolist(),
                                       payload={uri.id: rows.ids[place], uri.text: rows.texts[place],
                                                **{key: values[place] for key, values in rows.metadata.items()}})
                    for place in range(start, min(start + BATCH, len(rows.texts)))])
        except BaseException:  # an error or Ctrl-C: no half-written collection is left
            client.delete_collection(uri.name)
            raise
    finally:
        client.close()
