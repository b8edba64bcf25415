"""A slider over layers that also works for a model with a single one (a static model has only layer 0, a one-layer
model one attention layer): Streamlit refuses a slider whose ends are equal, so then it says which layer it is."""

from __future__ import annotations

from typing import Any

import streamlit as st


def layer_slider(label: str, low: int, high: int, value: int | None = None, *, where: Any = st, key: str,
                 **kwargs: Any) -> int:
    if low >= high:
        where.caption(f"{label}: {low}, the only one this model has.")
        return low
    if value is None:  # the value lives in st.session_state[key]
        return int(where.slider(label, low, high, key=key, **kwargs))
    return int(where.slider(label, low, high, value, key=key, **kwargs))
