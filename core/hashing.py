"""Content hashes that key caches: equal inputs give equal keys, and any change of a text changes the key."""

from __future__ import annotations

import functools
import hashlib
import json
import weakref
from collections.abc import Iterable

import numpy as np

CHUNK_BYTES = 64 * 2**20


def texts_digest(texts: Iterable[str], *, prefix: bytes = b"") -> str:
    """blake2b over `prefix` and each text with its length, so no two different lists of texts collide by
    concatenation; a tuple's (immutable: the built-in corpus) is remembered, as pages ask for it on every rerun."""
    if isinstance(texts, tuple):
        return _tuple_digest(texts, prefix)
    return _digest(texts, prefix)


@functools.lru_cache(maxsize=32)
def _tuple_digest(texts: tuple[str, ...], prefix: bytes) -> str:
    return _digest(texts, prefix)


def _digest(texts: Iterable[str], prefix: bytes) -> str:
    digest = hashlib.blake2b(prefix, digest_size=20)
    for text in texts:
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


# digests of arrays that cannot change (read-only, as a dataset's memory-mapped vectors): (id, header) -> the array
# (weakly) and its digest. A million 384-dim vectors took seconds to hash, on every rerun of the map.
_READ_ONLY: dict[tuple[int, str], tuple[weakref.ref, str]] = {}


def array_digest(array: np.ndarray, header: dict[str, object]) -> str:
    """blake2b over `header` (as sorted JSON, with the array's shape) and the array's values as little-endian
    float64, so equal values give equal keys whatever their dtype; a read-only array is hashed once."""
    given = array
    array = np.atleast_1d(np.asarray(array))
    head = json.dumps({**header, "shape": array.shape}, sort_keys=True)
    fixed = isinstance(given, np.ndarray) and not given.flags.writeable
    if fixed and (known := _READ_ONLY.get((id(given), head))) and known[0]() is given:
        return known[1]
    digest = hashlib.blake2b(head.encode(), digest_size=20)
    rows = max(1, CHUNK_BYTES // max(1, 8 * int(np.prod(array.shape[1:]))))  # in blocks: a million vectors
    for start in range(0, len(array), rows):  # never a float64 copy of the whole
        digest.update(np.ascontiguousarray(array[start:start + rows], dtype="<f8").tobytes())
    if fixed:
        key = (id(given), head)
        _READ_ONLY[key] = (weakref.ref(given, lambda _: _READ_ONLY.pop(key, None)), digest.hexdigest())
    return digest.hexdigest()
