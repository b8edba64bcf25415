"""Deleting a model from the page: a Delete button, then a question with Yes and Cancel. The model in use is refused,
and a deployment that switches deleting off sees which switch instead of the button."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.deployment import load_config, where_set


def confirmed_delete(pick: str, in_use: str | None, *, key: str, question: str,
                     delete: Callable[[str], None]) -> None:
    """Offer to delete `pick`; `delete(pick)` runs once the user has said yes to `question`. Widget keys start with
    `key`."""
    if not load_config().allow_model_deletion:
        st.caption(f"Deleting models is switched off on this server ({where_set('allow_model_deletion')}).")
        return
    confirm = f"{key}_confirm"
    if st.session_state.get(confirm) != pick:
        if st.button(f"Delete {pick}…", key=f"{key}_delete"):
            if pick == in_use:
                st.error(f"{pick} is the sidebar's model now; choose another model in the sidebar, then delete it.")
            else:
                st.session_state[confirm] = pick
                st.rerun()
        return
    st.warning(question)
    yes, no = st.columns([1, 4])
    if yes.button("Yes, delete", type="primary", key=f"{key}_delete_yes"):
        delete(pick)
        st.session_state.pop(confirm, None)
        st.rerun()
    if no.button("Cancel", key=f"{key}_delete_no"):
        st.session_state.pop(confirm, None)
        st.rerun()
