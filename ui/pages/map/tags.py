"""Tags on the map: a selection named ("Tag the selection"), the corpus's tags as columns of its rows (so the map
colours by one, and every table and download has them), renamed, removed, the last change undone, read back from a
file, and the rows with their labels, tags and places downloaded (core.data.labels keeps them)."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from core.data.corpus import CorpusError
from core.data.labels import (
    TAG_PREFIX,
    TagError,
    TagStore,
    labelled_table,
    tag_columns,
    tags_from_table,
    tags_here,
)
from core.data.rows import ROW_ID
from core.data.uploads import read_table
from ui.components.downloads import csv_download, file_download
from ui.pages.map.corpus import MapCorpus

NOTICE = "map_tags_notice"  # session key: what the last change of the tags did, said once after its rerun
UNTAGGED = "untagged"


def store() -> TagStore:
    return TagStore()


def tag_option(name: str) -> str:
    """How a tag is offered under "Colour by"."""
    return f"tag: {name}"


def with_tags(corpus: MapCorpus) -> MapCorpus:
    """The corpus with one boolean `tag_<name>` column per tag of its rows, each a colouring of the map."""
    tags = tags_here(corpus.frame[ROW_ID], store().tags(corpus.key))
    if not tags:
        return corpus
    columns = tag_columns(corpus.frame[ROW_ID].tolist(), tags)
    frame = pd.concat([corpus.frame.drop(columns=[c for c in columns if c in corpus.frame]), columns.set_index(
        corpus.frame.index)], axis=1)
    return replace(corpus, frame=frame,
                   colourings={**corpus.colourings, **{tag_option(name): f"{TAG_PREFIX}{name}" for name in tags}})


def column_labels(frame: pd.DataFrame, column: str) -> list[str]:
    """A label column's values as the colours show them; a tag's: its name where a row carries it, else "untagged"."""
    if column.startswith(TAG_PREFIX):
        return np.where(frame[column].to_numpy(dtype=bool), column.removeprefix(TAG_PREFIX), UNTAGGED).tolist()
    return [str(value) for value in frame[column]]


def _changed(change) -> None:
    """Run a change of the tags (a button's callback), and say what it did, or why it could not be done."""
    try:
        state = change()
    except TagError as err:
        st.session_state[NOTICE] = ("error", str(err))
    else:
        st.session_state[NOTICE] = ("success", f"Done: {state.last_change}." if state.last_change
                                    else "Undone: the tags are as they were before.")


def _notice() -> None:
    level, text = st.session_state.pop(NOTICE, (None, ""))
    if level == "error":
        st.error(text)
    elif level == "success":
        st.success(text)


def tag_selection(corpus: MapCorpus, row_ids: list[str]) -> None:
    """"Tag the selection": a name for the selected rows (new, or a tag to add them to)."""
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    left.text_input("Tag name", key="map_tag_name", placeholder="e.g. questions",
                    help="A new name makes a tag; a tag's name adds these rows to it. A text may carry several tags.")
    # the callbacks read the inputs as they are when the button is pressed (a name typed just before included)
    right.button("Tag the selection", key="map_tag_button", type="primary", on_click=lambda: _changed(
        lambda: store().tag(corpus.key, st.session_state.get("map_tag_name", ""), row_ids)))


def tags_panel(corpus: MapCorpus, frame: pd.DataFrame, coords: np.ndarray) -> None:
    """The corpus's tags, what can be done to them, and the rows drawn with their labels, tags and places."""
    st.subheader("Tags")
    _notice()
    state = store().state(corpus.key)
    if state.tags:
        here = set(frame[ROW_ID])
        st.dataframe(pd.DataFrame({"tag": list(state.tags),
                                   "rows on the map": [len(rows & here) for rows in state.tags.values()],
                                   "rows": [len(rows) for rows in state.tags.values()]}), hide_index=True)
        st.caption("Each tag is kept by row id (in the cache folder, so it outlasts a restart): a text's row id is its "
                   "content, so every corpus holding the row shows its tags, on every page, in any order, grown or "
                   "shrunk; a dataset's tags are its own. “rows” counts a tag's rows in every corpus. Colour the map "
                   "by a tag under “Colour by”.")
        name_col, new_col, rename_col, remove_col = st.columns([2, 2, 1, 1], vertical_alignment="bottom")
        name_col.selectbox("Tag", list(state.tags), key="map_tag_chosen")
        new_col.text_input("New name", key="map_tag_new_name")

        def chosen() -> str:  # read when a button is pressed
            return st.session_state.get("map_tag_chosen", "")

        rename_col.button("Rename", key="map_tag_rename", on_click=lambda: _changed(
            lambda: store().rename(corpus.key, chosen(), st.session_state.get("map_tag_new_name", ""))))
        remove_col.button("Remove", key="map_tag_remove",
                          on_click=lambda: _changed(lambda: store().remove(corpus.key, chosen())))
    else:
        st.caption("No tags yet: select points (click, Box or Lasso), then name them under “Selected points”.")
    if state.last_change:
        st.button(f"Undo: {state.last_change}", key="map_tag_undo",
                  on_click=lambda: _changed(lambda: store().undo(corpus.key)))
    _read_back(corpus)
    table = labelled_table(frame, {}, coords)  # the rows drawn carry their tags already (`with_tags`)
    left, right = st.columns(2)
    with left:
        csv_download(table, "map-rows.csv", "Download the rows with labels and tags (CSV)", index=False,
                     key="map_rows_csv")
    file_download("Download the rows with labels and tags (Parquet)", lambda: _parquet(table), "map-rows.parquet",
                  key="map_rows_parquet", where=right)
    st.caption("Every row drawn: its row_id, text, label columns, one true/false tag_<name> column per tag, and its "
               "place on the map (x, y).")


def _read_back(corpus: MapCorpus) -> None:
    """Tags from a file this app (or a map file) wrote: its row_id column and its tag_<name> columns."""
    upload = st.file_uploader("Read tags from a file", type=["csv", "parquet"], key="map_tags_file",
                              help="A CSV or Parquet file with a row_id column and tag_<name> columns of true/false, "
                                   "as the downloads here write them: each tag's rows are added to this corpus's.")
    if upload is None or st.session_state.get("map_tags_file_read") == upload.file_id:
        return
    try:
        found = tags_from_table(read_table(upload.name, upload.getvalue()))
    except (TagError, CorpusError) as err:
        st.error(str(err))
        return
    if not found:
        st.warning(f"{upload.name} has no tag_<name> column: there is no tag in it to read.")
        return
    for name, rows in found.items():
        if rows:
            _changed(lambda name=name, rows=rows: store().tag(corpus.key, name, rows))
    st.session_state["map_tags_file_read"] = upload.file_id
    st.rerun()


def _parquet(table: pd.DataFrame) -> bytes:
    sink = io.BytesIO()
    table.to_parquet(sink, index=False)
    return sink.getvalue()
