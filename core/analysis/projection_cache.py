"""Projections kept on disk, so a restart or the command line does not compute a 25-second t-SNE again: a file per
content hash of the vectors and the parameters, with a format version, written atomically; a file that does not
read back whole is computed again."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import numpy as np

from core.analysis.projection import Method, Projection, aligned_umap, project
from core.paths import atomic_write, cache_dir

VERSION = 2  # 2: t-SNE by openTSNE


def projection_key(vectors: np.ndarray, params: dict[str, object]) -> str:
    data = np.ascontiguousarray(vectors, dtype="<f8")
    digest = hashlib.blake2b(json.dumps({"version": VERSION, "shape": data.shape, **params}, sort_keys=True).encode(),
                             digest_size=20)
    digest.update(data.tobytes())
    return digest.hexdigest()


def _save(projection: Projection) -> bytes:
    arrays = {"coords": projection.coords}
    for name in ("explained_variance", "mean", "components"):
        value = getattr(projection, name)
        if value is not None:
            arrays[name] = value
    sink = io.BytesIO()
    np.savez(sink, params=np.array(json.dumps({"method": projection.method, "params": projection.params})),
             **arrays)
    return sink.getvalue()


def _load(data: bytes) -> Projection | None:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            meta = json.loads(str(stored["params"]))
            extra = {name: stored[name] for name in ("explained_variance", "mean", "components") if name in stored}
            return Projection(coords=stored["coords"], method=meta["method"], params=meta["params"], **extra)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError):
        return None


def _path(vectors: np.ndarray, params: dict[str, object]) -> Path:
    return cache_dir() / "projections" / f"{projection_key(vectors, params)}.npz"


def stored_projection(vectors: np.ndarray, *, method: Method, perplexity: float = 30.0, neighbours: int = 15,
                      min_dist: float = 0.1, seed: int = 0) -> Projection | None:
    """The projection of these vectors with these parameters if it is on disk whole, else None (nothing runs)."""
    params = {"method": method, "perplexity": perplexity, "neighbours": neighbours, "min_dist": min_dist, "seed": seed}
    path = _path(vectors, params)
    if not path.exists():
        return None
    found = _load(path.read_bytes())
    return found if found is not None and len(found.coords) == len(vectors) else None


def cached_project(vectors: np.ndarray, *, method: Method, perplexity: float = 30.0, neighbours: int = 15,
                   min_dist: float = 0.1, seed: int = 0) -> Projection:
    """`project`, read from disk when these vectors were projected with these parameters before."""
    params = {"method": method, "perplexity": perplexity, "neighbours": neighbours, "min_dist": min_dist, "seed": seed}
    found = stored_projection(vectors, **params)
    if found is not None:
        return found
    result = project(vectors, **params)
    data = _save(result)
    atomic_write(_path(vectors, params), lambda tmp: tmp.write_bytes(data))
    return result


def aligned_key(a: np.ndarray, b: np.ndarray, params: dict[str, object]) -> str:
    """Both spaces' vectors side by side (with A's width, so no other split of the columns collides) and the
    parameters."""
    both = np.hstack([np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)])
    return projection_key(both, {"method": "AlignedUMAP", "a_dims": int(np.shape(a)[1]), **params})


def _aligned_parts(a: np.ndarray, b: np.ndarray, params: dict[str, object]) -> list[Path]:
    key = aligned_key(a, b, params)
    return [cache_dir() / "projections" / f"{key}-{part}.npz" for part in ("a", "b")]


def stored_aligned(a: np.ndarray, b: np.ndarray, *, neighbours: int = 15, min_dist: float = 0.1,
                   seed: int = 0) -> tuple[Projection, Projection] | None:
    """The aligned UMAP pair of these two spaces if both maps are on disk whole, else None (nothing runs)."""
    found = [_load(path.read_bytes()) if path.exists() else None
             for path in _aligned_parts(a, b, {"neighbours": neighbours, "min_dist": min_dist, "seed": seed})]
    if any(part is None or len(part.coords) != len(a) for part in found):
        return None
    return found[0], found[1]


def cached_aligned(a: np.ndarray, b: np.ndarray, *, neighbours: int = 15, min_dist: float = 0.1,
                   seed: int = 0) -> tuple[Projection, Projection]:
    """`aligned_umap`, read from disk when these two spaces were aligned with these parameters before."""
    params = {"neighbours": neighbours, "min_dist": min_dist, "seed": seed}
    found = stored_aligned(a, b, **params)
    if found is not None:
        return found
    result = aligned_umap(a, b, **params)
    for path, part in zip(_aligned_parts(a, b, params), result):
        data = _save(part)
        atomic_write(path, lambda tmp, data=data: tmp.write_bytes(data))
    return result
