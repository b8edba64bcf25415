"""A read-through embedding cache on disk, so a restart or another visitor does not encode a corpus again.

Each file is named by a content hash of the model (its weights' fingerprint), the embedding options and
the texts. It holds a magic line, a JSON header (key, shape, blake2b digest of the data) and the float32
rows. A file that is short, long, garbled or from another key is deleted and rebuilt, never read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.encoder import Progress, encode
from core.models import LoadedModel
from core.paths import atomic_write, cache_dir
from core.settings import Pooling, Settings

MAGIC = b"EXPLORER-EMBEDDINGS 1\n"
MAX_HEADER = 4096


def cache_key(model: LoadedModel, texts: Sequence[str], *, pooling: Pooling, layer: int | None,
              normalize: bool, max_length: int | None) -> str:
    """Equal keys mean equal vectors: `None` layer and length resolve to the model's own values first."""
    options = {
        "model": model.model_id, "fingerprint": model.fingerprint, "pooling": pooling,
        "layer": model.num_layers if layer is None else layer, "normalize": normalize,
        "max_length": min(max_length or model.max_length, model.max_positions),
    }
    digest = hashlib.blake2b(json.dumps(options, sort_keys=True).encode(), digest_size=20)
    for text in texts:
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def cache_file(key: str) -> Path:
    return cache_dir() / "embeddings" / f"{key}.emb"


def _digest(vectors: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(vectors, dtype="<f4").tobytes(), digest_size=20).hexdigest()


def write_vectors(path: Path, key: str, vectors: np.ndarray) -> None:
    vectors = np.ascontiguousarray(vectors, dtype="<f4")
    header = json.dumps({"key": key, "shape": list(vectors.shape), "digest": _digest(vectors)}).encode() + b"\n"

    def write(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            fh.write(MAGIC + header)
            fh.write(vectors.tobytes())

    atomic_write(path, write)


def read_vectors(path: Path, key: str) -> np.ndarray | None:
    """The stored vectors, or None when the file is missing or fails any check (then it is deleted)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    vectors = _parse(data, key)
    if vectors is None:
        path.unlink(missing_ok=True)
    return vectors


def _parse(data: bytes, key: str) -> np.ndarray | None:
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER)
    if end < 0:
        return None
    try:
        header = json.loads(data[len(MAGIC):end])
        rows, dims = (int(n) for n in header["shape"])
    except (ValueError, KeyError, TypeError):
        return None
    body = data[end + 1:]
    if header.get("key") != key or rows < 0 or dims < 0 or len(body) != rows * dims * 4:
        return None
    vectors = np.frombuffer(body, dtype="<f4").reshape(rows, dims).astype(np.float32)
    return vectors if _digest(vectors) == header.get("digest") else None


def cached_embeddings(model: LoadedModel, texts: Sequence[str], *, pooling: Pooling = "default",
                      layer: int | None = None, normalize: bool = False, max_length: int | None = None,
                      progress: Progress | None = None) -> np.ndarray:
    """float32 vectors (len(texts), dims) in input order: read from disk, else encoded and stored."""
    texts = list(texts)
    key = cache_key(model, texts, pooling=pooling, layer=layer, normalize=normalize, max_length=max_length)
    path = cache_file(key)
    vectors = read_vectors(path, key)
    if vectors is None:
        vectors = encode(model, texts, pooling=pooling, layer=layer, normalize=normalize, max_length=max_length,
                         progress=progress).vectors
        write_vectors(path, key, vectors)
    return vectors


def cached_embeddings_with(model: LoadedModel, texts: Sequence[str], settings: Settings,
                           progress: Progress | None = None) -> np.ndarray:
    return cached_embeddings(model, texts, pooling=settings.pooling, layer=settings.layer,
                             normalize=settings.normalize, max_length=settings.max_length, progress=progress)


def is_cached(model: LoadedModel, texts: Sequence[str], settings: Settings) -> bool:
    """Whether a stored file exists for these texts (so a page can skip drawing a progress bar)."""
    key = cache_key(model, list(texts), pooling=settings.pooling, layer=settings.layer,
                    normalize=settings.normalize, max_length=settings.max_length)
    return cache_file(key).exists()
