"""A read-through embedding cache on disk, so a restart or another visitor does not encode a corpus again.

Each file is named by a content hash of the model (its weights' fingerprint), the embedding options and
the texts. It holds a magic line, a JSON header (key, shape, blake2b digest of the data) and the float32
rows; a sparse model's file holds its CSR arrays instead (values, column indices, row pointers), never a dense
vocabulary-wide matrix. A file that is short, long, garbled or from another key is deleted and rebuilt, never read.

Vectors read or written are also kept in a bounded in-memory memo, so a page rerun does not read a large
file again; they are handed out read-only, so no caller can change what the memo holds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TypeVar

import numpy as np
import scipy.sparse as sp

from core.encoding.encoder import Progress, encode, pooler_for
from core.encoding.file_memo import FileMemo
from core.encoding.sparse import encode_sparse
from core.hashing import texts_digest
from core.models.loading import LoadedModel
from core.paths import atomic_write, cache_dir
from core.settings import Pooling, Settings

MAGIC = b"EXPLORER-EMBEDDINGS 1\n"
SPARSE_MAGIC = b"EXPLORER-SPARSE 1\n"
KEY_VERSION = 3  # raise when what a key means changes, so older files are never read as current
MAX_HEADER = 4096
MEMO_BYTES = 512 * 2**20  # e.g. a 100,000-text corpus (the max_corpus_rows limit) of 768 dims is 307 MB

ProgressBar = Callable[[], AbstractContextManager[Progress | None]]
Stored = TypeVar("Stored", np.ndarray, sp.csr_matrix)

_memo = FileMemo(MEMO_BYTES)


def cache_key(model: LoadedModel, texts: Sequence[str], *, pooling: Pooling, layer: int | None,
              normalize: bool, max_length: int | None, prompt: str = "", truncate_dim: int | None = None) -> str:
    """Equal keys mean equal vectors: `None` layer and length resolve to the model's own values first."""
    options = {
        "version": KEY_VERSION, "model": model.model_id, "fingerprint": model.fingerprint, "pooling": pooling,
        "mode": list(pooler_for(model, pooling)[0]), "layer": model.num_layers if layer is None else layer,
        "normalize": normalize, "max_length": model.token_limit(max_length), "prompt": prompt,
        "truncate_dim": truncate_dim,
    }
    return texts_digest(texts, prefix=json.dumps(options, sort_keys=True).encode())


def sparse_key(model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
    """A sparse model's vectors depend on its weights, the token limit, the prompt and the role (a Router routes by
    it); pooling, layer and dimensions do not apply."""
    options = {"version": KEY_VERSION, "kind": "sparse", "model": model.model_id, "fingerprint": model.fingerprint,
               "max_length": model.token_limit(settings.max_length), "prompt": settings.prompt, "role": settings.role}
    return texts_digest(texts, prefix=json.dumps(options, sort_keys=True).encode())


def cache_file(key: str) -> Path:
    return cache_dir() / "embeddings" / f"{key}.emb"


def _digest(data: bytes | memoryview) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def write_vectors(path: Path, key: str, vectors: np.ndarray) -> None:
    vectors = np.ascontiguousarray(vectors, dtype="<f4")
    header = json.dumps({"key": key, "shape": list(vectors.shape), "digest": _digest(vectors.data)}).encode() + b"\n"

    def write(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            fh.write(MAGIC + header)
            fh.write(vectors.data)

    atomic_write(path, write)


def write_sparse(path: Path, key: str, matrix: sp.csr_matrix) -> None:
    parts = [np.ascontiguousarray(matrix.data, "<f4"), np.ascontiguousarray(matrix.indices, "<i4"),
             np.ascontiguousarray(matrix.indptr, "<i8")]
    body = b"".join(part.tobytes() for part in parts)
    header = json.dumps({"key": key, "shape": list(matrix.shape), "nnz": int(matrix.nnz),
                         "digest": _digest(body)}).encode() + b"\n"
    atomic_write(path, lambda tmp: tmp.write_bytes(SPARSE_MAGIC + header + body))


def _read(path: Path, key: str, parse: Callable[[bytes, str], Stored | None]) -> Stored | None:
    """The stored vectors, or None when the file is missing or fails any check (then it is deleted)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    vectors = parse(data, key)
    if vectors is None:
        path.unlink(missing_ok=True)
    return vectors


def read_vectors(path: Path, key: str) -> np.ndarray | None:
    return _read(path, key, _parse)


def read_sparse(path: Path, key: str) -> sp.csr_matrix | None:
    return _read(path, key, _parse_sparse)


def _header(data: bytes, magic: bytes, key: str) -> tuple[dict, memoryview] | None:
    """A file's JSON header and the bytes after it, when it starts with `magic` and names `key`."""
    if not data.startswith(magic):
        return None
    end = data.find(b"\n", len(magic), len(magic) + MAX_HEADER)
    if end < 0:
        return None
    try:
        header = json.loads(data[len(magic):end])
    except ValueError:
        return None
    body = memoryview(data)[end + 1:]
    if not isinstance(header, dict) or header.get("key") != key or _digest(body) != header.get("digest"):
        return None
    return header, body


def _parse(data: bytes, key: str) -> np.ndarray | None:
    """The float32 rows of a file's bytes (read-only, sharing their memory), or None when a check fails."""
    found = _header(data, MAGIC, key)
    if found is None:
        return None
    header, body = found
    try:
        rows, dims = (int(n) for n in header["shape"])
    except (ValueError, KeyError, TypeError):
        return None
    if rows < 0 or dims < 0 or len(body) != rows * dims * 4:
        return None
    return np.frombuffer(body, dtype="<f4").reshape(rows, dims).astype(np.float32, copy=False)


def _parse_sparse(data: bytes, key: str) -> sp.csr_matrix | None:
    """The CSR matrix of a sparse file's bytes, or None when a check fails."""
    found = _header(data, SPARSE_MAGIC, key)
    if found is None:
        return None
    header, body = found
    try:
        (rows, dims), nnz = (int(n) for n in header["shape"]), int(header["nnz"])
    except (ValueError, KeyError, TypeError):
        return None
    if min(rows, dims, nnz) < 0 or len(body) != nnz * 8 + (rows + 1) * 8:
        return None
    values = np.frombuffer(body, "<f4", nnz)
    indices = np.frombuffer(body, "<i4", nnz, offset=nnz * 4)
    indptr = np.frombuffer(body, "<i8", rows + 1, offset=nnz * 8)
    if indptr[0] != 0 or indptr[-1] != nnz or np.any(np.diff(indptr) < 0) or (nnz and not 0 <= indices.min()
                                                                               <= indices.max() < dims):
        return None
    return sp.csr_matrix((values, indices, indptr), shape=(rows, dims))


def _read_only(vectors: Stored) -> Stored:
    arrays = (vectors.data, vectors.indices, vectors.indptr) if isinstance(vectors, sp.csr_matrix) else (vectors,)
    for array in arrays:
        array.flags.writeable = False
    return vectors


def _stored(path: Path, key: str, read: Callable[[Path, str], Stored | None] = read_vectors) -> Stored | None:
    """The file's vectors: from the memo while the file is the one they were read from or written to."""
    return _memo.read(path, key, lambda path, key: None if (found := read(path, key)) is None else _read_only(found))


def _options(settings: Settings) -> dict:
    return {"pooling": settings.pooling, "layer": settings.layer, "normalize": settings.normalize,
            "max_length": settings.max_length, "prompt": settings.prompt, "truncate_dim": settings.truncate_dim}


def settings_key(model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
    """`cache_key` under a run's settings."""
    return cache_key(model, texts, **_options(settings))


def stored_embeddings(model: LoadedModel, texts: Sequence[str], settings: Settings) -> np.ndarray | None:
    """The texts' vectors if they are in memory or on disk already, else None (nothing is encoded)."""
    key = settings_key(model, texts, settings)
    return _stored(cache_file(key), key)


def stored_sparse(model: LoadedModel, texts: Sequence[str], settings: Settings) -> sp.csr_matrix | None:
    """A sparse model's vectors of the texts if they are in memory or on disk already, else None."""
    key = sparse_key(model, texts, settings)
    return _stored(cache_file(key), key, read_sparse)


def cached_sparse_with(model: LoadedModel, texts: Sequence[str], settings: Settings,
                       progress_bar: ProgressBar = nullcontext) -> sp.csr_matrix:
    """A sparse model's read-only CSR rows (len(texts), vocabulary) of the texts as `settings` (prompt, role, token
    limit) make them: from memory or disk, else encoded and stored."""
    texts = list(texts)
    key = sparse_key(model, texts, settings)
    path = cache_file(key)
    found = _stored(path, key, read_sparse)
    if found is not None:
        return found
    with progress_bar() as progress:
        matrix = encode_sparse(model, texts, role=settings.role, prompt=settings.prompt,
                               max_length=settings.max_length, progress=progress).matrix
    write_sparse(path, key, matrix)
    return _memo.remember(path, key, _read_only(matrix))


def _read_through(model: LoadedModel, texts: list[str], options: dict, progress_bar: ProgressBar) -> np.ndarray:
    key = cache_key(model, texts, **options)
    path = cache_file(key)
    vectors = _stored(path, key)
    if vectors is None:
        with progress_bar() as progress:
            vectors = encode(model, texts, **options, progress=progress).vectors
        write_vectors(path, key, vectors)
        vectors = _memo.remember(path, key, _read_only(vectors))
    return vectors


def cached_embeddings(model: LoadedModel, texts: Sequence[str], *, pooling: Pooling = "default",
                      layer: int | None = None, normalize: bool = False, max_length: int | None = None,
                      prompt: str = "", truncate_dim: int | None = None,
                      progress: Progress | None = None) -> np.ndarray:
    """Read-only float32 vectors (len(texts), dims) in input order: from memory or disk, else encoded and stored."""
    options = {"pooling": pooling, "layer": layer, "normalize": normalize, "max_length": max_length,
               "prompt": prompt, "truncate_dim": truncate_dim}
    return _read_through(model, list(texts), options, lambda: nullcontext(progress))


def cached_embeddings_with(model: LoadedModel, texts: Sequence[str], settings: Settings,
                           progress_bar: ProgressBar = nullcontext) -> np.ndarray:
    """`cached_embeddings` with the settings' options; `progress_bar()` is opened only when texts are encoded."""
    return _read_through(model, list(texts), _options(settings), progress_bar)
