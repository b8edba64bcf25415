"""Progress bars with counts, rate and time left; corpus embeddings from the disk cache or under such a bar."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
import streamlit as st

from core.encoding.embedding_cache import cached_vectors
from core.encoding.encoder import Progress
from core.encoding.late_cache import cached_token_matrix
from core.encoding.token_matrix import TokenMatrix
from core.models.loading import LoadedModel
from core.progress import progress_text
from core.settings import Role, Settings


@contextmanager
def progress_bar(what: str) -> Iterator[Progress]:
    """Yield a `progress(done, total)` callback drawing "what: done / total texts · rate · time left"."""
    bar = st.progress(0.0, text=f"{what}…")
    start = time.monotonic()

    def update(done: int, total: int) -> None:
        text = progress_text(done, total, time.monotonic() - start)
        bar.progress(min(done / max(total, 1), 1.0), text=f"{what}: {text}")

    try:
        yield update
    finally:
        bar.empty()


def embed_corpus(model: LoadedModel, texts: Sequence[str], settings: Settings) -> np.ndarray | sp.csr_matrix:
    """The corpus vectors (read-only; a sparse model's CSR rows) from memory or disk, else encoded under a progress
    bar."""
    what = f"Embedding {len(texts):,} texts with {model.model_id} (kept on disk afterwards)"
    return cached_vectors(model, texts, settings, lambda: progress_bar(what))


def encode_late_corpus(model: LoadedModel, texts: Sequence[str], role: Role = "document") -> TokenMatrix:
    """A late-interaction model's token vectors of the texts as documents (as queries: role "query"), from disk, else
    encoded under a progress bar."""
    what = f"Encoding {len(texts):,} texts as {_side(role)}s with {model.model_id} (kept on disk afterwards)"
    return cached_token_matrix(model, texts, role, lambda: progress_bar(what))


def _side(role: Role) -> str:
    return "query" if role == "query" else "document"
