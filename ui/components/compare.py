"""Configuration B of a page's compare mode: model, pooling and layer chosen on the page. A hub model B that the
cache lacks downloads only when asked; the page shows configuration A alone until then."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from core.kinds.titles import configuration_title
from core.models.loading import LoadedModel
from core.settings import POOLINGS, Settings, carried_layer, layer_setting
from ui.components.model_download import ready_or_download
from ui.state.persist import kept, kept_value, linked_value, set_kept
from ui.work.cache import available_ids, cached_model


def _clamp_layer(key: str, last: int, default: int) -> None:
    """Keep B's layer inside B's model; "the last layer" stays the last when B changes depth."""
    seen = f"_{key}_last"
    current = kept_value(key)
    if current is None:  # the first visit: a link's layer, else the default
        set_kept(key, linked_value(key, default, min_value=0, max_value=last))
    elif carried_layer(current, st.session_state.get(seen, last), last) != current:
        set_kept(key, last)
    st.session_state[seen] = last


def configuration_b(settings: Settings, *, prefix: str, default_model: str, default_pooling: str,
                    default_layer: Literal["last", "middle"] = "last",
                    layer_help: str = "0 is the embedding layer.") -> tuple[Settings, LoadedModel] | None:
    """Model / pooling / layer B under keys `{prefix}_b_*`; None (with the reason shown) when B cannot load, or is
    still to download (its Download button, or its progress, shown)."""
    left, middle, right = st.columns(3)
    model_id = kept(left.selectbox, "Model B", key=f"{prefix}_b_model", url=True, default=default_model,
                    options=available_ids("dense"), must_be_option=True)
    pooling = kept(middle.selectbox, "Pooling B", key=f"{prefix}_b_pooling", url=True, default=default_pooling,
                   options=POOLINGS)
    if not ready_or_download(model_id, key=f"{prefix}_b_model",
                             meanwhile=f"Configuration A is shown alone until {model_id} is here."):
        return None
    try:
        model = cached_model(model_id, settings.device)
    except Exception as err:  # any load failure must leave the page usable
        st.error(f"Could not load {model_id} for configuration B: {err} Pick another model B.")
        return None
    last = model.num_layers
    start = last if default_layer == "last" else last // 2
    _clamp_layer(f"{prefix}_b_layer", last, start)
    layer = 0 if last == 0 else kept(right.slider, "Layer B", key=f"{prefix}_b_layer", url=True, default=start,
                                     min_value=0, max_value=last, help=layer_help)
    b = Settings(model_id=model.model_id, pooling=pooling, layer=layer_setting(layer, last),
                 normalize=settings.normalize, max_length=settings.max_length, device=settings.device,
                 prompt=settings.prompt)
    return b, model


def describe(settings: Settings, model: LoadedModel) -> str:
    """The configuration as figure titles name it (core.kinds.titles, which the notebook's figures use too)."""
    return configuration_title(settings, model)
