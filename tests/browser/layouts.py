"""Points whose places are known, for the canvas page of the browser tests and for `make bench`.

grid: n points with room between them (colour: which fifth of the columns). needles: n - 10 points packed into a
square (every pixel of it covered) and, as the last 10 rows, 10 "needle" points apart from it."""

from __future__ import annotations

import numpy as np

NEEDLES = 10
# canvas_app.py's `?marks=1` on the 1,500-point grid (50 columns): a label at each zoom level on a grid point (its row)
# and a query between rows 1205, 1206, 1255 and 1256, with lines to three rows
MARKS = {"labels": {"middle": (775, 0), "closer": (260, 1), "closest": (464, 2)},
         "query": "a query", "query_at": (5.5, 24.5), "neighbours": [1205, 1256, 320]}


def layout(n: int, shape: str) -> tuple[np.ndarray, list[str], list[str]]:
    """(coordinates, texts, labels) of n points laid out as `shape`."""
    if shape == "needles":
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
