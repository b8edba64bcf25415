"""A dataset row picked as the query, where a typed query cannot be encoded the way the dataset was."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui.state.persist import kept


def row_as_query(rows: int, text_of: Callable[[int], str]) -> int:
    row = int(kept(st.number_input, "Query: the text in row", key="ret_dataset_row", default=0, min_value=0,
                   max_value=rows - 1, step=1))
    st.caption(f"Row {row:,}: {text_of(row)}")
    return row
