"""A page holding only the map canvas, for the browser tests and `make bench`: `?n=` points laid out as
`?layout=grid|needles` (tests/browser/layouts.py), so the drawn canvas can be checked pixel by pixel, a highlight
input as the map page has it, and the selected rows as Python received them. `?compare=1` draws a second, linked
canvas of the same points upside down, as the map's compare mode does; `?marks=1` adds a label at each zoom level and
a query with lines to three points (MARKS: on grid points, so their screen places are those of rows). "Reverse the rows"
draws the same points in the opposite order, as a corpus uploaded again in another order: Python keeps the selection by
text, as the map page keeps it by row id, and hands the canvas the rows it now holds."""

from __future__ import annotations

import streamlit as st

from core.analysis.map.clusters import matching
from core.plots.map import QueryMark, categories
from core.plots.map_canvas import canvas_view
from tests.browser.layouts import MARKS, layout
from ui.components.map_canvas import map_canvas

n = int(st.query_params.get("n", "1500"))
# a resource, not data: read only, so never copied on a rerun (1,000,000 texts took a fifth of a second to copy)
coords, texts, labels = st.cache_resource(max_entries=2)(layout)(n, st.query_params.get("layout", "grid"))
if st.session_state.get("reverse"):  # its checkbox is drawn below the maps, so the maps keep their place on the page
    coords, texts, labels = coords[::-1], texts[::-1], labels[::-1]
kept = st.session_state.get("selected_texts", set())
rows = [i for i, text in enumerate(texts) if text in kept] if kept else []
find = st.text_input("Highlight texts containing")
highlight = matching(texts, find) if find else None
colouring = categories(labels, title="group")
maps = {"map_canvas": coords}
if st.query_params.get("compare"):
    maps["map_canvas_b"] = coords * [1, -1]
marks = st.query_params.get("marks") == "1"
zoom_labels = [(*coords[row], text, level, 100) for text, (row, level) in MARKS["labels"].items()] if marks else ()
query = QueryMark(MARKS["query"], MARKS["query_at"], MARKS["neighbours"]) if marks else None
for key, xy in maps.items():
    view = canvas_view(xy, colouring, label=f"{n:,} points", highlight=highlight, link="pair" if len(maps) > 1 else "",
                       height=500 if len(maps) > 1 else 720, labels=zoom_labels, query=query)
    map_canvas(view, key=key, hover_text=lambda row: texts[row], on_selection=lambda chosen: st.session_state.update(
        selected=chosen, selected_texts={texts[row] for row in chosen}), selected=rows)
st.checkbox("Reverse the rows", key="reverse")
selected = st.session_state.get("selected", [])
st.text(f"Selected {len(selected):,}: {' '.join(map(str, selected[:2000]))}")
