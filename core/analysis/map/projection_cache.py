"""Projections kept on disk, so a restart or the command line does not compute a 25-second t-SNE again: a file per
content hash of the vectors and the parameters, with a format version, written atomically; a file that does not
read back whole is computed again."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from core.analysis.map import projection as projections
from core.analysis.map.projection import DEFAULTS, Method, Projection, ProjectionParams, aligned_umap, project
from core.hashing import array_digest
from core.paths import atomic_write, cache_dir

VERSION = 3  # 2: t-SNE by openTSNE; 3: above FIT_POINTS, fitted on a sample that places the rest


def projection_key(vectors: np.ndarray, params: dict[str, object]) -> str:
    """The vectors' content, the parameters, and how many rows a t-SNE or UMAP is fitted on and placed at a time:
    a projection stored with other ones is another map."""
    fitting = ({"fit_points": projections.FIT_POINTS, "chunk": projections.CHUNK} if params.get("method") != "PCA"
               else {})
    return array_digest(vectors, {"version": VERSION, **params, **fitting})


def _save(projection: Projection) -> bytes:
    arrays: dict[str, Any] = {"coords": projection.coords}
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


def _file(key: str) -> Path:
    return cache_dir() / "projections" / f"{key}.npz"


def read_stored(key: str, n: int) -> Projection | None:
    """The projection of n points stored under `key` (`projection_key`) if it is on disk whole, else None (nothing
    runs): a page that hashed the vectors once for its job's key reads with the same key."""
    path = _file(key)
    if not path.exists():
        return None
    found = _load(path.read_bytes())
    return found if found is not None and len(found.coords) == n else None


def store(key: str, projection: Projection) -> None:
    data = _save(projection)
    atomic_write(_file(key), lambda tmp: tmp.write_bytes(data))


def cached_project(vectors: np.ndarray, *, method: Method, perplexity: float = DEFAULTS.perplexity,
                   neighbours: int = DEFAULTS.neighbours, min_dist: float = DEFAULTS.min_dist,
                   seed: int = DEFAULTS.seed) -> Projection:
    """`project`, read from disk when these vectors were projected with these parameters before."""
    params = ProjectionParams(method, perplexity, neighbours, min_dist, seed).options()
    key = projection_key(vectors, params)
    found = read_stored(key, len(vectors))
    if found is not None:
        return found
    result = project(vectors, method=method, perplexity=perplexity, neighbours=neighbours, min_dist=min_dist,
                     seed=seed)
    store(key, result)
    return result


def aligned_key(a: np.ndarray, b: np.ndarray, params: dict[str, object]) -> str:
    """Both spaces' vectors side by side (with A's width, so no other split of the columns collides) and the
    parameters."""
    both = np.hstack([np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)])
    return projection_key(both, {"method": "AlignedUMAP", "a_dims": int(np.shape(a)[1]), **params})


def read_aligned(key: str, n: int) -> tuple[Projection, Projection] | None:
    """The aligned UMAP pair stored under `key` (`aligned_key`) if both maps are on disk whole, else None."""
    first, second = (read_stored(f"{key}-{part}", n) for part in "ab")
    return None if first is None or second is None else (first, second)


def cached_aligned(a: np.ndarray, b: np.ndarray, *, neighbours: int = DEFAULTS.neighbours,
                   min_dist: float = DEFAULTS.min_dist, seed: int = DEFAULTS.seed) -> tuple[Projection, Projection]:
    """`aligned_umap`, read from disk when these two spaces were aligned with these parameters before."""
    params = ProjectionParams(neighbours=neighbours, min_dist=min_dist, seed=seed).umap_options()
    key = aligned_key(a, b, params)
    found = read_aligned(key, len(a))
    if found is not None:
        return found
    result = aligned_umap(a, b, neighbours=neighbours, min_dist=min_dist, seed=seed)
    for part, projection in zip("ab", result):
        store(f"{key}-{part}", projection)
    return result
