"""Heatmaps of text × text matrices that stay readable from 1 to a few hundred texts."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from core.plots.labels import hover_text, label

LABEL_CHARS = 28
VALUES_UP_TO = 25  # cells carry their numbers up to this many texts
LABELS_UP_TO = 40  # past this, only every k-th row label is shown
COLUMN_LABELS_UP_TO = 15  # column numbers are thinned to a round step past this
ROUND_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
PAGE_PX = 1150  # the main area of a wide page at a common laptop width
LABELS_PX = 230  # what the row labels take of a figure's width
VALUE_CELL_PX = 30  # a cell narrower than this cannot show "0.00" at a readable size
TICK_PX = 14  # one row label's height
CLICKABLE_UP_TO = 60  # cells take a click up to this many texts (then the pickers below the figure)
HOVER_CHARS = 300  # hover shows each text up to this length
HOVER_LINE = 70


def axis_labels(texts: Sequence[str], order: Sequence[int]) -> list[str]:
    """Numbered (by input line), truncated labels in display order."""
    return [f"{i + 1}. " + label(texts[i], LABEL_CHARS) for i in order]


def hover_names(texts: Sequence[str], order: Sequence[int]) -> list[str]:
    """Each text numbered and wrapped for the hover box; the number keeps duplicates apart as categories."""
    return [hover_text(f"{i + 1}. {texts[i]}", limit=HOVER_CHARS, width=HOVER_LINE) for i in order]


def cell_px(n: int, *, height: int, columns: int, compact: bool) -> float:
    """About how many pixels wide and high a cell is drawn, for a figure sharing its row with `columns` - 1 others."""
    width = PAGE_PX / columns - (40 if compact else LABELS_PX)
    return min(width, height - 60) / max(n, 1)


def _click_layer(z: np.ndarray, names: list[str], order: list[int], value_name: str) -> go.Scatter:
    """An invisible point on every cell, so a click selects the cell (Streamlit reports selections of points, not of
    heatmap cells); it carries the hover box, with each cell's (row, column) text numbers as its data."""
    rows, cols = np.indices(z.shape)
    return go.Scatter(
        x=[names[c] for c in cols.ravel()], y=[names[r] for r in rows.ravel()], mode="markers", name="cells",
        customdata=[[order[r], order[c]] for r, c in zip(rows.ravel(), cols.ravel())], showlegend=False,
        marker=dict(size=12, opacity=0), text=[f"{value:.3f}" for value in z.ravel()],
        hovertemplate="<b>row</b> %{y}<br><b>column</b> %{x}<br>" + value_name + ": %{text}<extra></extra>")


def _heatmap(z: np.ndarray, texts: Sequence[str], order: Sequence[int] | None, *, zmin: float, zmax: float,
             colorscale: str, value_name: str, title: str, height: int | None, compact: bool,
             columns: int = 1, clickable: bool = False) -> go.Figure:
    """Rows labelled "line. start of text", columns by line number; `compact`: numbers only. Cells carry their
    value only where it can be read, and row labels are thinned so that they never run together.

    The axes are categorical with the full (numbered) texts as categories, so the hover shows them without
    an n × n array of strings; tick labels are the short forms.
    """
    n = len(texts)
    order = list(range(n)) if order is None else list(order)
    z = np.asarray(z, dtype=float)[np.ix_(order, order)]
    names = hover_names(texts, order)
    numbers = [str(i + 1) for i in order]
    labels = numbers if compact else axis_labels(texts, order)
    size = height or int(min(900, max(320, 120 + 34 * n)))
    step = max(1, math.ceil(n / LABELS_UP_TO), math.ceil(n * TICK_PX / max(size - 60, TICK_PX)))
    readable = n <= VALUES_UP_TO and cell_px(n, height=size, columns=columns, compact=compact) >= VALUE_CELL_PX
    column_step = next((k for k in ROUND_STEPS if k * COLUMN_LABELS_UP_TO >= n), math.ceil(n / COLUMN_LABELS_UP_TO))
    ticks = dict(type="category", tickmode="array", showgrid=False)
    click = clickable and n <= CLICKABLE_UP_TO
    cells = go.Heatmap(
        z=z, x=names, y=names, zmin=zmin, zmax=zmax, colorscale=colorscale,
        colorbar=dict(title=dict(text=value_name, side="right")),
        texttemplate="%{z:.2f}" if readable else None,
        hovertemplate="<b>row</b> %{y}<br><b>column</b> %{x}<br>" + value_name + ": %{z:.3f}<extra></extra>",
        hoverinfo="skip" if click else None)
    # The layout goes to the constructor: update_layout / update_xaxes cost milliseconds a call (key paths matched)
    figure = go.Figure([cells, *([_click_layer(z, names, order, value_name)] if click else [])], layout=dict(
        title=title or None, height=size,
        margin=dict(l=10, r=10, t=40 + 20 * title.count("<br>") if title else 10, b=10),
        xaxis=dict(**ticks, tickvals=names[::column_step], ticktext=numbers[::column_step], tickangle=0),
        yaxis=dict(**ticks, tickvals=names[::step], ticktext=labels[::step], autorange="reversed")))
    return figure


def similarity_heatmap(matrix: np.ndarray, texts: Sequence[str], *, metric: str = "cosine", fixed_range: bool = True,
                       order: Sequence[int] | None = None, title: str = "", height: int | None = None,
                       compact: bool = False, columns: int = 1, clickable: bool = False,
                       value_name: str | None = None) -> go.Figure:
    """Cosine / dot product (diverging, [-1, 1] when `fixed_range`) or Euclidean distance (fitted, sequential);
    `clickable`: a click on a cell selects it (its data: the row's and column's text numbers); `value_name` names the
    values in the colour bar and hover (the metric's name by default)."""
    values = np.asarray(matrix, dtype=float)
    if metric == "euclidean":
        high = float(values.max()) if values.size else 1.0
        return _heatmap(values, texts, order, zmin=0.0, zmax=high or 1.0, colorscale="Viridis_r",
                        value_name="distance", title=title, height=height, compact=compact, columns=columns,
                        clickable=clickable)
    if fixed_range or not values.size:
        low, high = -1.0, 1.0
    else:
        low, high = float(values.min()), float(values.max())
        if high - low < 1e-9:
            low, high = low - 0.5, high + 0.5
    name = value_name or ("cosine" if metric == "cosine" else "dot")
    return _heatmap(values, texts, order, zmin=low, zmax=high, colorscale="RdBu_r", value_name=name, title=title,
                    height=height, compact=compact, columns=columns, clickable=clickable)


def difference_heatmap(difference: np.ndarray, texts: Sequence[str], *, order: Sequence[int] | None = None,
                       title: str = "", height: int | None = None, compact: bool = False,
                       columns: int = 1) -> go.Figure:
    """B − A, centred on zero: red where B finds a pair more similar than A, blue where less."""
    values = np.asarray(difference, dtype=float)
    span = float(np.abs(values).max()) if values.size else 0.0
    span = span or 1.0
    return _heatmap(values, texts, order, zmin=-span, zmax=span, colorscale="RdBu_r", value_name="B − A",
                    title=title, height=height, compact=compact, columns=columns)
