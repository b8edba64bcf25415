"""A page holding only the map canvas, for the browser tests and `make bench`: `?n=` points whose places are known,
so the drawn canvas can be checked pixel by pixel, and a highlight input as the map page has it.

layout=grid: a grid of n points with room between them (colour: which fifth of the columns). layout=needles: n - 10
points packed into a square (every pixel of it covered) and, as the last 10 rows, 10 "needle" points apart from it."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.analysis.map.clusters import matching
from core.plots.map import categories
from core.plots.map_canvas import canvas_view
from ui.components.map_canvas import map_canvas

NEEDLES = 10


@st.cache_data(max_entries=2)
def layout(n: int, kind: str) -> tuple[np.ndarray, list[str], list[str]]:
    if kind == "needles":
        side = int(np.ceil(np.sqrt(n - NEEDLES)))
        bulk = np.arange(n - NEEDLES)
        coords = np.column_stack([bulk % side, bulk // side]).astype(np.float64) / side
        needles = np.column_stack([np.full(NEEDLES, 1.6), np.linspace(0.05, 0.95, NEEDLES)])
        labels = ["bulk"] * (n - NEEDLES) + ["needle"] * NEEDLES
        return np.vstack([coords, needles]), [f"point {i}" for i in range(n)], labels
    columns = int(np.ceil(np.sqrt(n * 5 / 3)))
    rows = np.arange(n)
    coords = np.column_stack([rows % columns, rows // columns]).astype(np.float64)
    return coords, [f"point {i}" for i in range(n)], [f"band {(i % columns) * 5 // columns}" for i in rows]


n = int(st.query_params.get("n", "1500"))
coords, texts, labels = layout(n, st.query_params.get("layout", "grid"))
find = st.text_input("Highlight texts containing")
highlight = matching(texts, find) if find else None
view = canvas_view(coords, categories(labels, title="group"), label=f"{n:,} points", highlight=highlight)
map_canvas(view, key="map_canvas", hover_text=lambda row: texts[row],
           on_selection=lambda rows: st.session_state.__setitem__("selected", rows))
st.write(f"Selected: {len(st.session_state.get('selected', [])):,}")
