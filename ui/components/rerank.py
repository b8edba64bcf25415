"""Choosing a reranker (a CrossEncoder): the catalog's rerankers, or a folder or hub id typed in; where none exists
yet, how to make one."""

from __future__ import annotations

import streamlit as st

from core.deployment import load_config
from core.models.reranker import LoadedReranker
from ui.state.persist import kept
from ui.work.cache import available_ids, cached_reranker

TYPED = "Another reranker (folder or hub id)"


def reranker_choice(*, key: str, device: str, where=st) -> LoadedReranker | None:
    """The chosen reranker, loaded; None with what to do said (none on this machine, or one that fails to load)."""
    known, typed = available_ids("reranker"), load_config().allow_custom_models
    if not known:
        where.info("No reranker on this machine yet: train one on Fine-tune (objective: reranker)"
                   + (", or type a CrossEncoder's folder below." if typed else "."))
        if not typed:
            return None
    options = [*known, *([TYPED] if typed else [])]
    choice = kept(where.selectbox, "Reranker", key=key, default=options[0], options=options, must_be_option=True,
                  help="A cross-encoder reads the query and each text together and scores the pair; trained on "
                       "Fine-tune, or a CrossEncoder folder typed below.")
    if choice == TYPED:
        choice = kept(where.text_input, "Reranker folder or hub id", key=f"{key}_typed", default="").strip()
        if not choice:
            if known:
                where.info("Type a CrossEncoder's folder (or a hub id, where downloads are allowed).")
            return None
    try:
        return cached_reranker(choice, device)
    except Exception as err:  # any load failure must leave the page usable
        where.error(f"Could not load {choice} as a reranker: {err}")
        return None
