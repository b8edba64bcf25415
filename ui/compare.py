"""Configuration B of a page's compare mode: model, pooling and layer chosen on the page."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from core.models import LoadedModel
from core.settings import POOLINGS, Settings
from ui.models import cached_catalog, cached_model
from ui.persist import kept


def _clamp_layer(key: str, last: int, default: int) -> None:
    """Keep B's layer inside B's model; "the last layer" stays the last when B changes depth."""
    ss = st.session_state
    shadow, seen = f"_kept_{key}", f"_{key}_last"
    current = ss.get(key, ss.get(shadow))
    previous_last = ss.get(seen, last)
    if current is None:
        ss[key] = ss[shadow] = default
    elif current > last or (current == previous_last != last):
        ss[key] = ss[shadow] = last
    ss[seen] = last


def configuration_b(settings: Settings, *, prefix: str, default_model: str, default_pooling: str,
                    default_layer: Literal["last", "middle"] = "last",
                    layer_help: str = "0 is the embedding layer.") -> tuple[Settings, LoadedModel] | None:
    """Model / pooling / layer B under keys `{prefix}_b_*`; None (with the reason shown) when B cannot load."""
    ss = st.session_state
    available = [entry.id for entry, avail in cached_catalog() if avail.available]
    model_key = f"{prefix}_b_model"
    if ss.get(model_key, ss.get(f"_kept_{model_key}")) not in (None, *available):
        ss[model_key] = ss[f"_kept_{model_key}"] = default_model
    left, middle, right = st.columns(3)
    model_id = kept(left.selectbox, "Model B", key=model_key, default=default_model, options=available)
    pooling = kept(middle.selectbox, "Pooling B", key=f"{prefix}_b_pooling", default=default_pooling,
                   options=POOLINGS)
    try:
        model = cached_model(model_id, settings.device)
    except Exception as err:  # any load failure must leave the page usable
        st.error(f"Could not load {model_id} for configuration B: {err} Pick another model B.")
        return None
    last = model.num_layers
    start = last if default_layer == "last" else last // 2
    _clamp_layer(f"{prefix}_b_layer", last, start)
    layer = kept(right.slider, "Layer B", key=f"{prefix}_b_layer", default=start, min_value=0, max_value=last,
                 help=layer_help)
    b = Settings(model_id=model.model_id, pooling=pooling, layer=None if layer == last else layer,
                 normalize=settings.normalize, max_length=settings.max_length, device=settings.device)
    return b, model
