"""Keep a page's inputs when the user visits another page (Streamlit drops unrendered widgets' state), and put
the inputs that define a view in the URL, so a copied link opens the same view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from core.hashing import texts_digest
from ui.state.page_registry import PAGES
from ui.state.url_codec import decode, encode

PAGE_KEYS = {page.url_path: page.prefix for page in PAGES}  # each page's widget keys start so


def _shadow(key: str) -> str:
    return f"_kept_{key}"


def _from_url(key: str, default: Any, kwargs: dict[str, Any]) -> Any:
    """The value a link gives widget `key`, if it parses and fits the widget; else `default`."""
    text = st.query_params.get(key)
    if text is None:
        return default
    try:
        value = decode(text, default)
    except ValueError:
        return default
    options = kwargs.get("options")
    if options is not None and (value not in options if not isinstance(value, list) else
                                not set(value) <= set(options)):
        return default
    low, high = kwargs.get("min_value"), kwargs.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        return default
    return type(default)(value) if isinstance(default, (int, float)) and not isinstance(default, bool) else value


def _to_url(key: str, value: Any, default: Any) -> None:
    encoded = None if value == default else encode(value)
    if value != default and encoded is None:
        st.caption("Too long to keep in a link: a copied link opens with the default here.")
    if encoded is None:
        if key in st.query_params:
            del st.query_params[key]
    elif st.query_params.get(key) != encoded:
        st.query_params[key] = encoded


def _following(key: str) -> str:
    return f"_follows_default_{key}"


def kept(widget: Callable[..., Any], label: str, *, key: str, default: Any, must_be_option: bool = False,
         url: bool = False, follow_default: bool = False, **kwargs: Any) -> Any:
    """Render `widget` whose value survives page switches; `default` is used only the first time.

    `must_be_option`: a kept value no longer among `options` (another corpus's column, a model gone from the
    catalog) starts again from `default`. `url`: the value is kept in the query string under `key` (when it is not
    the default), and a link's value is the starting value of a session's first visit. `follow_default`: until the
    user changes the widget (or a link sets it), it shows `default` as `default` changes."""
    ss = st.session_state
    shadow = _shadow(key)
    if shadow not in ss:
        ss[shadow] = _from_url(key, default, kwargs) if url else default
        ss[_following(key)] = follow_default and not (url and key in st.query_params)
    if ss.get(_following(key)):
        ss[key] = ss[shadow] = default
        kwargs["on_change"] = lambda: ss.__setitem__(_following(key), False)
    if must_be_option and ss.get(key, ss[shadow]) not in kwargs["options"]:
        ss.pop(key, None)
        ss[shadow] = default
    if key not in ss:
        ss[key] = ss[shadow]
    value = widget(label, key=key, **kwargs)
    ss[shadow] = value
    if url:
        _to_url(key, value, default)
    return value


def texts_key(texts: Sequence[str]) -> str:
    """A short widget-key suffix that changes with the texts, so a picker never shows stale options."""
    return texts_digest(texts)[:12]


def kept_value(key: str, default: Any = None) -> Any:
    """The value widget `key` shows now or showed when last rendered (on any page); `default` if never."""
    return st.session_state.get(key, st.session_state.get(_shadow(key), default))


def linked_value(key: str, default: Any, **limits: Any) -> Any:
    """The value a link gives widget `key` (if it parses and fits `limits`: options, min_value, max_value), else
    `default`: for a widget whose starting value is set before it is drawn."""
    return _from_url(key, default, limits)


def set_kept(key: str, value: Any) -> None:
    """Set widget `key` and the value kept for it (from a callback, or before the widget is drawn)."""
    st.session_state[key] = st.session_state[_shadow(key)] = value


def forget_other_pages(url_path: str) -> None:
    """Drop the query-string values of pages other than this one, so a copied link describes this page alone."""
    own = PAGE_KEYS.get(url_path)
    for key in list(st.query_params):
        if any(key.startswith(prefix) for prefix in PAGE_KEYS.values()) and not (own and key.startswith(own)):
            del st.query_params[key]
