"""Pre-fill the on-disk embedding cache with seeded random vectors, so page tests never encode big corpora."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.analysis.search import unit_rows
from core.encoding import embedding_cache
from core.encoding.embedding_cache import cache_file, cache_key, write_vectors
from core.models.loading import LoadedModel


def prefill(model: LoadedModel, texts: list[str], *, pooling: str = "default", layer: int | None = None,
            prompt: str = "", seed: int = 0, vectors: np.ndarray | None = None) -> np.ndarray:
    """Seeded random unit vectors for `texts` (or the `vectors` given) under these options, written to the cache."""
    key = cache_key(model, texts, pooling=pooling, layer=layer, normalize=False, max_length=None, prompt=prompt)
    if vectors is None:
        vectors = unit_rows(np.random.default_rng(seed).standard_normal((len(texts), model.hidden_size)))
    write_vectors(cache_file(key), key, vectors)
    # Another module's fill of the same key, and scores the pages computed from it, must not stay in memory.
    embedding_cache._memo.clear()
    st.cache_data.clear()
    return vectors
