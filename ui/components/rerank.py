"""Choosing a reranker (a CrossEncoder): the catalog's rerankers, or a folder or hub id typed in; where none exists
yet, how to make one. A hub reranker the cache lacks downloads when asked, as the server's job, never by opening a
page."""

from __future__ import annotations

import streamlit as st

from core.deployment import load_config
from core.models.catalog import find_entry, of_kind
from core.models.reranker import LoadedReranker
from core.models.sources import pending_download
from ui.components.model_download import ready_or_download
from ui.state.persist import kept
from ui.work.cache import available_ids, cached_catalog, cached_reranker

TYPED = "Another reranker (folder or hub id)"


def _unavailable() -> str:
    """Why the catalog's rerankers that cannot load here cannot (a sentence each), or nothing."""
    status = {entry.id: found for entry, found in cached_catalog()}
    rerankers = of_kind((entry for entry, _ in cached_catalog()), "reranker")
    return "".join(f" {status[entry.id].message}" for entry in rerankers if not status[entry.id].available)


def reranker_choice(*, key: str, device: str, where=st) -> LoadedReranker | None:
    """The chosen reranker, loaded; None with what to do said (none on this machine, one that fails to load, or one
    still to download)."""
    known, typed = available_ids("reranker"), load_config().allow_custom_models
    if not known:
        where.info("No reranker on this machine yet: train one on Fine-tune (objective: reranker)"
                   + (", or type a CrossEncoder's folder below." if typed else ".") + _unavailable())
        if not typed:
            return None
    options = [*known, *([TYPED] if typed else [])]
    here = [option for option in known if pending_download(option) is None]
    choice = kept(where.selectbox, "Reranker", key=key, default=(here or options)[0], options=options,
                  must_be_option=True, format_func=lambda name: name if name == TYPED else find_entry(name).listed(),
                  help="A cross-encoder reads the query and each text together and scores the pair: the catalog's, "
                       "one trained on Fine-tune, or a CrossEncoder folder or hub id typed below.")
    if choice == TYPED:
        choice = kept(where.text_input, "Reranker folder or hub id", key=f"{key}_typed", default="").strip()
        if not choice:
            if known:
                where.info("Type a CrossEncoder's folder (or a hub id, where downloads are allowed).")
            return None
    if not ready_or_download(choice, key=key, where=where):
        return None
    try:
        return cached_reranker(choice, device)
    except Exception as err:  # any load failure must leave the page usable
        where.error(f"Could not load {choice} as a reranker: {err}")
        return None

