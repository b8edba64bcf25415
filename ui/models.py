"""Models loaded once per (model, device) for all sessions of the server."""

from __future__ import annotations

import streamlit as st

from core.models import Availability, CatalogEntry, LoadedModel, availability, catalog, load_model


@st.cache_resource(show_spinner="Loading the model…", max_entries=4)
def cached_model(model_id: str, device: str) -> LoadedModel:
    return load_model(model_id, device)


@st.cache_data(ttl=30, show_spinner=False)
def cached_catalog() -> list[tuple[CatalogEntry, Availability]]:
    return [(entry, availability(entry.id)) for entry in catalog()]
