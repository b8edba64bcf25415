"""Models and lexical indexes built once for all sessions of the server; the catalog, briefly cached."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import streamlit as st

from core.evaluation.lexical import Baseline, LexicalIndex, fit_baseline
from core.models.catalog import Availability, CatalogEntry, catalog
from core.models.loading import LoadedModel, load_model
from core.models.sources import availability


@st.cache_resource(show_spinner="Loading the model…", max_entries=4)
def cached_model(model_id: str, device: str) -> LoadedModel:
    return load_model(model_id, device)


@st.cache_data(ttl=30, show_spinner=False)
def cached_catalog() -> list[tuple[CatalogEntry, Availability]]:
    return [(entry, availability(entry.id)) for entry in catalog()]


def available_ids() -> list[str]:
    """Catalog models that can be loaded now, in catalog order."""
    return [entry.id for entry, status in cached_catalog() if status.available]


def lexical_index(kind: Baseline, corpus: Sequence[str]) -> LexicalIndex:
    """The baseline fitted on `corpus`, once per corpus content (a digest is the key: Streamlit's own hashing of
    thousands of texts would take longer than a rerun)."""
    digest = hashlib.blake2b(digest_size=20)
    for text in corpus:
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return _fitted(kind, digest.hexdigest(), corpus)


@st.cache_resource(show_spinner="Fitting TF-IDF and bag of words…", max_entries=8)
def _fitted(kind: Baseline, corpus_digest: str, _corpus: Sequence[str]) -> LexicalIndex:
    return fit_baseline(kind, _corpus)
