"""Content hashes that key caches: equal inputs give equal keys, and any change of a text changes the key."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def texts_digest(texts: Iterable[str], *, prefix: bytes = b"") -> str:
    """blake2b over `prefix` and each text with its length, so no two different lists of texts collide by
    concatenation."""
    digest = hashlib.blake2b(prefix, digest_size=20)
    for text in texts:
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()
