"""Keep a page's inputs when the user visits another page (Streamlit drops unrendered widgets' state)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st


def _shadow(key: str) -> str:
    return f"_kept_{key}"


def kept(widget: Callable[..., Any], label: str, *, key: str, default: Any, must_be_option: bool = False,
         **kwargs: Any) -> Any:
    """Render `widget` whose value survives page switches; `default` is used only the first time.

    `must_be_option`: a kept value no longer among `options` (another corpus's column, a model gone from the
    catalog) starts again from `default`."""
    ss = st.session_state
    shadow = _shadow(key)
    if shadow not in ss:
        ss[shadow] = default
    if must_be_option and ss.get(key, ss[shadow]) not in kwargs["options"]:
        ss.pop(key, None)
        ss[shadow] = default
    if key not in ss:
        ss[key] = ss[shadow]
    value = widget(label, key=key, **kwargs)
    ss[shadow] = value
    return value


def kept_value(key: str, default: Any = None) -> Any:
    """The value widget `key` shows now or showed when last rendered (on any page); `default` if never."""
    return st.session_state.get(key, st.session_state.get(_shadow(key), default))


def set_kept(key: str, value: Any) -> None:
    """Set widget `key` and the value kept for it (from a callback, or before the widget is drawn)."""
    st.session_state[key] = st.session_state[_shadow(key)] = value
