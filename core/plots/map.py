"""Scatter maps of projected embeddings (WebGL), the query with lines to its neighbours, the trust histogram."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from core.plots.labels import hover_text, plain_text

MAX_CATEGORIES = 30  # more distinct labels than this make an unreadable legend: colour by cluster instead
HOVER_BUDGET = 6_000_000  # characters of hover text in one figure, far below Streamlit's message limit
HOVER_MAX, HOVER_MIN, HOVER_WIDTH = 500, 80, 80
PALETTE = qualitative.Plotly + qualitative.Dark24
QUERY_COLOUR = "#d6336c"
GREY = "#ced4da"
NOISE = "noise"  # the category of points in no cluster (HDBSCAN), drawn grey


@dataclass(frozen=True)
class Colouring:
    """Per-point colour values: category names (one legend entry each) or numbers (a colour scale)."""

    title: str
    values: Sequence[str] | np.ndarray
    categorical: bool


@dataclass(frozen=True)
class QueryMark:
    """A query drawn on the map at `position`, with lines to the points `neighbours` (full-space nearest)."""

    text: str
    position: tuple[float, float]
    neighbours: Sequence[int]


def fits_legend(labels: Sequence[str], *, limit: int = MAX_CATEGORIES) -> bool:
    return len(set(labels)) <= limit


def categories(labels: Sequence[object], *, title: str) -> Colouring:
    return Colouring(title, [str(label) for label in labels], categorical=True)


def numbers(values: Sequence[float] | np.ndarray, *, title: str) -> Colouring:
    return Colouring(title, np.asarray(values, dtype=np.float64), categorical=False)


def hover_limit(n: int, *, budget: int = HOVER_BUDGET) -> int:
    """Characters of each text shown on hover: all of it up to HOVER_MAX, less when there are many points."""
    return max(HOVER_MIN, min(HOVER_MAX, budget // max(n, 1)))


@lru_cache(maxsize=4)
def _hover_labels(texts: tuple[str, ...]) -> np.ndarray:
    """Each point's hover text, kept for the next rerun: wrapping 100,000 texts took a quarter of one (py-spy)."""
    limit = hover_limit(len(texts))
    return np.array([hover_text(t, limit=limit, width=HOVER_WIDTH) for t in texts], dtype=object)


def _point_traces(coords: np.ndarray, texts: Sequence[str], colouring: Colouring, *, show_legend: bool = True,
                  scale_x: float = 1.0, highlight: np.ndarray | None = None) -> list[go.Scattergl]:
    """One trace per category (or one coloured by number); grey first: the points `highlight` leaves out, numbers
    not measured (NaN) and HDBSCAN's noise."""
    hover = _hover_labels(tuple(texts))
    index = np.arange(len(texts))
    template = "#%{customdata}: %{text}<extra>%{fullData.name}</extra>"
    shown = np.ones(len(texts), bool) if highlight is None else np.asarray(highlight, bool)

    def trace(mask: np.ndarray, name: str, **marker: object) -> go.Scattergl:
        return go.Scattergl(x=coords[mask, 0], y=coords[mask, 1], mode="markers", name=name, legendgroup=name,
                            customdata=index[mask], text=hover[mask], hovertemplate=template,
                            showlegend=show_legend, marker=marker)

    traces = [] if shown.all() else [trace(~shown, "the rest", size=5, opacity=0.35, color=GREY)]
    if not colouring.categorical:
        values = np.asarray(colouring.values, dtype=np.float64)
        unmeasured = shown & np.isnan(values)  # e.g. the neighbour overlap of points outside its sample
        if unmeasured.any():
            traces.append(trace(unmeasured, "not measured", size=4, opacity=0.3, color=GREY))
        kept = shown & ~np.isnan(values)
        return traces + [go.Scattergl(
            x=coords[kept, 0], y=coords[kept, 1], mode="markers", name=colouring.title, customdata=index[kept],
            text=hover[kept], hovertemplate=f"#%{{customdata}} · {plain_text(colouring.title)} "
                                            "%{marker.color:.3~g}<br>%{text}<extra></extra>",
            marker=dict(size=6, opacity=0.8, color=values[kept], colorscale="Viridis", showscale=show_legend,
                        colorbar=dict(title=colouring.title, x=scale_x)),
            showlegend=False)]
    labels = np.asarray(colouring.values, dtype=object)
    names = sorted(set(labels) - {NOISE},  # every category keeps its colour
                   key=lambda v: (not v.lstrip("-").isdigit(), int(v) if v.lstrip("-").isdigit() else 0, v))
    noise = shown & (labels == NOISE)
    if noise.any():
        traces.append(trace(noise, NOISE, size=4, opacity=0.4, color=GREY))
    return traces + [trace(shown & (labels == name), name, size=6, opacity=0.8, color=PALETTE[i % len(PALETTE)])
                     for i, name in enumerate(names)]


def _query_traces(coords: np.ndarray, query: QueryMark) -> list[go.Scattergl]:
    qx, qy = query.position
    near = np.asarray(query.neighbours, dtype=int)
    xs = np.column_stack([np.full(len(near), qx), coords[near, 0], np.full(len(near), np.nan)]).ravel()
    ys = np.column_stack([np.full(len(near), qy), coords[near, 1], np.full(len(near), np.nan)]).ravel()
    return [
        go.Scattergl(x=xs, y=ys, mode="lines", name="to its nearest (full space)", hoverinfo="skip",
                     line=dict(color=QUERY_COLOUR, width=1)),
        go.Scattergl(x=coords[near, 0], y=coords[near, 1], mode="markers", name="nearest in full space",
                     customdata=near, hovertemplate="#%{customdata}<extra>neighbour</extra>",
                     marker=dict(size=12, color="rgba(0,0,0,0)", line=dict(color=QUERY_COLOUR, width=2))),
        go.Scattergl(x=[qx], y=[qy], mode="markers", name="query", text=[hover_text(query.text, limit=HOVER_MAX,
                                                                                  width=HOVER_WIDTH)],
                     hovertemplate="query: %{text}<extra></extra>",
                     marker=dict(size=18, symbol="star", color=QUERY_COLOUR, line=dict(color="white", width=1))),
    ]


def _layout(fig: go.Figure, title: str, legend_title: str) -> go.Figure:
    fig.update_layout(title=title, height=620, margin=dict(l=10, r=10, t=50, b=10), hovermode="closest",
                      legend=dict(title=legend_title, itemsizing="constant"), dragmode="pan",
                      hoverlabel=dict(align="left"))
    fig.update_xaxes(showticklabels=False, title=None, zeroline=False)
    fig.update_yaxes(showticklabels=False, title=None, zeroline=False)
    return fig


def _ring(coords: np.ndarray, chosen: Sequence[int], *, show_legend: bool = True) -> go.Scattergl:
    picked = np.asarray(chosen, dtype=int)
    return go.Scattergl(x=coords[picked, 0], y=coords[picked, 1], mode="markers", name="selected", customdata=picked,
                        hovertemplate="#%{customdata}<extra>selected</extra>", showlegend=show_legend,
                        legendgroup="selected",
                        marker=dict(size=13, color="rgba(0,0,0,0)", line=dict(color=QUERY_COLOUR, width=2)))


def map_figure(coords: np.ndarray, texts: Sequence[str], colouring: Colouring, *, query: QueryMark | None = None,
               title: str = "", highlight: np.ndarray | None = None, selected: Sequence[int] = (),
               labels: Sequence[tuple[float, float, str]] = ()) -> go.Figure:
    """One point per text; hover shows its number and text. Axes carry no units, so they are hidden. `highlight`
    greys the points it leaves out, `selected` points are ringed, and `labels` are written at their positions
    (cluster keywords)."""
    coords = np.asarray(coords, dtype=np.float64)
    fig = go.Figure(_point_traces(coords, texts, colouring, highlight=highlight))
    if len(selected):
        fig.add_trace(_ring(coords, selected))
    if query is not None:
        fig.add_traces(_query_traces(coords, query))
    for x, y, text in labels:
        fig.add_annotation(x=x, y=y, text=plain_text(text), showarrow=False, bgcolor="rgba(255,255,255,0.75)",
                           font=dict(size=11))
    return _layout(fig, title, colouring.title).update_layout(dragmode="lasso")


def compare_figure(left: np.ndarray, right: np.ndarray, texts: Sequence[str], colouring: Colouring, *,
                   titles: tuple[str, str], highlight: Sequence[int] = (),
                   queries: tuple[QueryMark | None, QueryMark | None] = (None, None)) -> go.Figure:
    """The same points under two configurations side by side; point #i is the same text in both, the points in
    `highlight` are ringed in both maps, and each map may show the query where its configuration places it."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.04)
    for col, coords in enumerate((np.asarray(left, float), np.asarray(right, float)), start=1):
        for trace in _point_traces(coords, texts, colouring, show_legend=col == 1, scale_x=1.02):
            fig.add_trace(trace, row=1, col=col)
        if (mark := queries[col - 1]) is not None:
            for trace in _query_traces(coords, mark):
                fig.add_trace(trace.update(showlegend=col == 1, legendgroup=trace.name), row=1, col=col)
        if len(highlight):
            fig.add_trace(_ring(coords, highlight, show_legend=col == 1), row=1, col=col)
    return _layout(fig, "", colouring.title).update_layout(dragmode="select")


def trust_figure(overlap: np.ndarray, *, k: int) -> go.Figure:
    """Histogram of the per-point neighbour overlap (0 = none of its k neighbours kept, 1 = all kept; points not
    measured, NaN, are left out)."""
    counts = overlap_counts(overlap, k=k)
    fig = go.Figure(go.Bar(x=list(range(k + 1)), y=list(counts.values()), marker_color="#3b5bdb",
                           hovertemplate=f"%{{x}} of {k} neighbours kept: %{{y}} points<extra></extra>"))
    fig.update_layout(height=300, margin=dict(l=10, r=10, t=40, b=10), bargap=0.1,
                      title=f"Neighbours kept: mean {np.nanmean(overlap):.0%}")
    fig.update_xaxes(title=f"kept of its {k} nearest", tickangle=0)
    fig.update_yaxes(title="points")
    return fig


def overlap_counts(overlap: np.ndarray, *, k: int) -> dict[str, int]:
    """The trust histogram's numbers, for download."""
    shares = np.arange(k + 1) / k
    return {f"{round(s * k)}/{k}": int(np.count_nonzero(np.isclose(np.asarray(overlap), s))) for s in shares}


def map_points(texts: Sequence[str], coords: np.ndarray, colouring: Colouring, overlap: np.ndarray) -> pd.DataFrame:
    """The map's numbers, for download: one row per point."""
    return pd.DataFrame({"#": np.arange(len(texts)), "text": list(texts), "x": coords[:, 0], "y": coords[:, 1],
                         colouring.title: colouring.values, "neighbour overlap": overlap})


def compare_points(texts: Sequence[str], a: np.ndarray, b: np.ndarray, colouring: Colouring) -> pd.DataFrame:
    """Both maps' numbers, for download: one row per point."""
    return pd.DataFrame({"#": np.arange(len(texts)), "text": list(texts), "A x": a[:, 0], "A y": a[:, 1],
                         "B x": b[:, 0], "B y": b[:, 1], colouring.title: colouring.values})
