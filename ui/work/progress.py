"""Progress bars with counts, rate and time left; corpus embeddings from the disk cache or under such a bar."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
import streamlit as st

from core.encoding.encoder import Progress
from core.encoding.late.matrix import TokenMatrix
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.progress import progress_text
from core.settings import Settings


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


def encode_corpus(model: LoadedModel, texts: Sequence[str], settings: Settings, *,
                  one_each: bool = False) -> np.ndarray | sp.csr_matrix | TokenMatrix:
    """The corpus's vectors for `settings.role` (read-only; a sparse model's CSR rows, a late-interaction model's token
    vectors, or with `one_each` its one vector a text: core.kinds' `text_vectors`) from memory or disk, else encoded
    under a progress bar."""
    kind = kind_of(model)
    what = f"{kind.corpus_work(model, len(texts), settings)} (kept on disk afterwards)"
    read = kind.text_vectors if one_each else kind.cached
    return read(model, texts, settings, lambda: progress_bar(what))
