"""A page holding only the map canvas, for the browser tests and `make bench`: `?n=` points laid out as
`?layout=grid|needles` (tests/browser/layouts.py), so the drawn canvas can be checked pixel by pixel, a highlight
input as the map page has it, and the selected rows as Python received them. `?compare=1` draws a second, linked
canvas of the same points upside down, as the map's compare mode does."""

from __future__ import annotations

import streamlit as st

from core.analysis.map.clusters import matching
from core.plots.map import categories
from core.plots.map_canvas import canvas_view
from tests.browser.layouts import layout
from ui.components.map_canvas import map_canvas

n = int(st.query_params.get("n", "1500"))
coords, texts, labels = st.cache_data(max_entries=2)(layout)(n, st.query_params.get("layout", "grid"))
find = st.text_input("Highlight texts containing")
highlight = matching(texts, find) if find else None
colouring = categories(labels, title="group")
maps = {"map_canvas": coords}
if st.query_params.get("compare"):
    maps["map_canvas_b"] = coords * [1, -1]
for key, xy in maps.items():
    view = canvas_view(xy, colouring, label=f"{n:,} points", highlight=highlight, link="pair" if len(maps) > 1 else "",
                       height=500 if len(maps) > 1 else 720)
    map_canvas(view, key=key, hover_text=lambda row: texts[row],
               on_selection=lambda rows: st.session_state.__setitem__("selected", rows))
selected = st.session_state.get("selected", [])
st.text(f"Selected {len(selected):,}: {' '.join(map(str, selected[:2000]))}")
