"""Seeded samples of row indices, so the same seed always shows the same points, and a larger sample holds a
smaller one's rows (a tag made on 600 rows shows on a map of 1,500)."""

from __future__ import annotations

import numpy as np


def sample_indices(n: int, *, limit: int, seed: int = 0) -> np.ndarray:
    """All indices when n <= limit, else the first `limit` of a seeded permutation of them, in increasing order."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).permutation(n)[:limit])
