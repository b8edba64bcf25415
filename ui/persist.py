"""Keep a page's inputs when the user visits another page (Streamlit drops unrendered widgets' state)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st


def kept(widget: Callable[..., Any], label: str, *, key: str, default: Any, **kwargs: Any) -> Any:
    """Render `widget` whose value survives page switches; `default` is used only the first time."""
    shadow = f"_kept_{key}"
    if shadow not in st.session_state:
        st.session_state[shadow] = default
    if key not in st.session_state:
        st.session_state[key] = st.session_state[shadow]
    value = widget(label, key=key, **kwargs)
    st.session_state[shadow] = value
    return value
