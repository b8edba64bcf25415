"""Seeded samples of row indices, so the same seed always shows the same points."""

from __future__ import annotations

import numpy as np


def sample_indices(n: int, *, limit: int, seed: int = 0) -> np.ndarray:
    """All indices when n <= limit, else a seeded random sample of `limit` of them, in increasing order."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=limit, replace=False))
