"""Heavy work in the server's background queue (core.jobs): corpus embeddings that several pages wait for, and the
warm-up at start, so that first contact with Retrieval, Evaluation or the map is instant."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

import numpy as np
import streamlit as st

from core.data.stsb import stsb_corpus
from core.deployment import load_config
from core.encoding.embedding_cache import cache_key, cached_embeddings_with, stored_embeddings
from core.jobs import JOBS, Job
from core.models.catalog import DEFAULT_MODEL_ID
from core.models.loading import LoadedModel
from core.progress import progress_text
from core.settings import Settings
from ui.cache import cached_model
from ui.progress import embed_corpus

BACKGROUND_FROM = 1_000  # texts: a smaller corpus embeds in a second or two, inline


def corpus_job(model: LoadedModel, texts: Sequence[str], settings: Settings) -> np.ndarray | Job:
    """The corpus's vectors when they are stored already (a small corpus is embedded at once), else the shared
    background job that embeds them."""
    found = stored_embeddings(model, texts, settings)
    if found is not None:
        return found
    if len(texts) < BACKGROUND_FROM:
        return embed_corpus(model, texts, settings)
    options = {"pooling": settings.pooling, "layer": settings.layer, "normalize": settings.normalize,
               "max_length": settings.max_length}
    key = ("embed", cache_key(model, list(texts), **options))
    return JOBS.submit(key, f"Embedding {len(texts):,} texts with {model.model_id}",
                       lambda progress: cached_embeddings_with(model, texts, settings, lambda: nullcontext(progress)))


def job_status(job: Job) -> None:
    """A live line for a job: its place in the queue, or its progress; the page reruns when it is done."""

    @st.fragment(run_every=1.0)
    def watch() -> None:
        if job.finished.is_set():
            st.rerun()
        place = JOBS.place(job)
        if place:
            st.info(f"{job.description}: waiting, number {place} in the server's queue of heavy work.")
        else:
            share = job.done / job.total if job.total else 0.0
            st.progress(share, text=f"{job.description}: {progress_text(job.done, job.total or 1, 0)} "
                                    "(the results fill in here when it is done)")

    watch()


def _compile_umap(progress) -> None:
    import warnings

    import umap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        umap.UMAP(n_neighbors=5, random_state=0).fit_transform(np.random.default_rng(0).standard_normal((40, 8)))
    progress(1, 1)


@st.cache_resource(show_spinner=False)
def warm_up() -> None:
    """Once a server process starts: the default model's corpus embeddings and UMAP's compile, in the background."""
    if not load_config().warm_up:
        return
    corpus_job(cached_model(DEFAULT_MODEL_ID, "auto"), stsb_corpus(), Settings())
    JOBS.submit(("compile", "umap"), "Compiling UMAP (once a server starts)", _compile_umap)
