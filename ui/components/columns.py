"""How the tables show their numbers: one column format for every page."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

THREE_DECIMALS = st.column_config.NumberColumn(format="%.3f")


def three_decimals(*columns: str | Iterable[str]) -> dict[str, st.column_config.NumberColumn]:
    """A `column_config` that shows each named column (names or iterables of names) to three decimals."""
    names = [name for group in columns for name in ([group] if isinstance(group, str) else group)]
    return dict.fromkeys(names, THREE_DECIMALS)
