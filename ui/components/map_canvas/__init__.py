"""The map's WebGL canvas: a Streamlit v2 component whose JavaScript is built from frontend/ (regl-scatterplot) and
committed, frontend/dist/map_canvas.js (`make canvas` rebuilds it; running the app needs no Node).

Each binary column (positions, colour codes, a highlight bitmask) is an element of its own whose message does not
change while the column does not, so Streamlit's message cache sends it once; the map's view names the columns by
their content keys. The 300 kB bundle travels the same way, once: Streamlit sends a component's JavaScript with each
of its elements, so the component's JavaScript is a small loader (frontend/src/loader.js) that loads the bundle from
its column. A selection comes back as row numbers; a hover asks for that one row's text.

The contract with the browser is `CanvasData` below (what the canvas is sent) and the two states it sets, named by
the `on_…_change` callbacks: `selection` (the selected row numbers) and `hover` (a trigger: the row whose text it
asks for, answered with its text and, for a picture, its thumbnail). The rows Python keeps selected go the other way
as a column of their own, which the canvas takes when its points are new. Its JavaScript side is
frontend/src/contract.js (the MapData typedef)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

import numpy as np
import streamlit as st

from core.plots.map_canvas import CanvasView, CanvasViewData, blob, blob_key

FRONTEND = Path(__file__).parent / "frontend"
BUNDLE = FRONTEND / "dist" / "map_canvas.js"
NOT_BUILT = ("The map canvas's JavaScript (ui/components/map_canvas/frontend/dist/map_canvas.js) is missing: restore "
             "it with `git checkout -- ui/components/map_canvas/frontend/dist`, or rebuild it with `make canvas` "
             "(Node 20).")


class HoverText(TypedDict):
    row: int
    text: str  # what hovering the row shows
    image: str | None  # a picture's thumbnail above the text (a data URI), or None


class CanvasData(CanvasViewData):
    """What the canvas is sent on each rerun: the view core built (CanvasViewData, documented per key in
    core/plots/map_canvas.py) and these four keys."""

    code: str  # the content key of the canvas's own code (the bundle), sent once as a column
    hover: HoverText | None  # the row the canvas last asked for, answered for this view only
    answered: int  # counts Python's answers to selections: the canvas draws a selection once this changes
    element: str  # the map's key: the browser keeps one canvas per key when Streamlit mounts the element again
    selected: str | None  # the content key of the rows Python keeps selected (uint32), taken when the points are new


@lru_cache(maxsize=1)
def _component():  # registered once per process, as Streamlit asks
    return st.components.v2.component("explorer_map_canvas",
                                      js=(FRONTEND / "src" / "loader.js").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _bundle() -> bytes:
    if not BUNDLE.exists():
        raise FileNotFoundError(NOT_BUILT)
    return blob(BUNDLE.read_bytes())


def map_canvas(canvas: CanvasView, *, key: str, hover_text: Callable[[int], str],
               on_selection: Callable[[list[int]], None], selected: Sequence[int] = (),
               hover_image: Callable[[int], str | None] = lambda row: None) -> None:
    """Draw `canvas`. `hover_text(row)` is what hovering that row shows, below `hover_image(row)` where that is a
    picture's thumbnail (a data URI); `on_selection(rows)` runs (before the
    rerun) when the user clicks, boxes or lassoes points, or clears the selection; `selected`, the rows Python keeps
    selected, are selected on the canvas when its points are new (another corpus, sample or order)."""
    try:
        code = _bundle()
    except FileNotFoundError as err:
        st.error(str(err))
        return
    component = _component()
    hovered_now, selected_now, answered = f"{key}_hover", f"{key}_selected_now", f"{key}_answered"

    def hovered() -> None:
        row = st.session_state[key].hover
        if row is not None:  # the answer holds for this view only: another colouring says other things
            st.session_state[hovered_now] = canvas.key, HoverText(row=int(row), text=hover_text(int(row)),
                                                                          image=hover_image(int(row)))

    def chose() -> None:
        on_selection(sorted(int(i) for i in st.session_state[key].selection or []))
        st.session_state[selected_now] = True
        st.session_state[answered] = st.session_state.get(answered, 0) + 1  # tells the canvas its answer is here

    # A fragment: a hover reruns only these elements, with the view already built (measured at 1,000,000 points:
    # hover to text 1.27 s when it reran the whole page); a selection reruns the page at once, whose panel shows it
    # (the canvas draws the selection after that answer).
    @st.fragment
    def drawn() -> None:
        if st.session_state.pop(selected_now, False):
            st.rerun()
        rows = {"selected": blob(np.asarray(selected, dtype="<u4").tobytes())} if len(selected) else {}
        view, hover = st.session_state.get(hovered_now, (None, None))
        sent = CanvasData(**canvas.view, code=blob_key(code), hover=hover if view == canvas.key else None,
                          answered=st.session_state.get(answered, 0), element=key,
                          selected=blob_key(rows["selected"]) if rows else None)
        # no gap between the columns' elements (each of no height): one that comes or goes (a highlight, a selection)
        # does not move the map on the page
        with st.container(gap=None):
            for name, data in {"code": code, **canvas.blobs, **rows}.items():
                component(key=f"{key}_{name}", data=data, height=0)
            component(key=key, data=sent, on_hover_change=hovered, on_selection_change=chose)

    drawn()
