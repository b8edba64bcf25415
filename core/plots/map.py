"""What a map colours its points by, the query it marks, and the trust histogram (the map itself is drawn by the
canvas: core/plots/map_canvas.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

from core.analysis.map.projection import NOISE

MAX_CATEGORIES = 30  # a legend of more cannot be read: a label column with more is coloured by k-means instead,
# and the clusters past the largest MAX_CATEGORIES share one grey (core/plots/map_canvas.py)
PALETTE = qualitative.Plotly + qualitative.Dark24
GREY = "#ced4da"


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


def density_categories(labels: Sequence[int] | np.ndarray, *, title: str) -> Colouring:
    """HDBSCAN's cluster labels as categories: each cluster's number, and NOISE for -1."""
    return categories([NOISE if label < 0 else label for label in labels], title=title)


def numbers(values: Sequence[float] | np.ndarray, *, title: str) -> Colouring:
    return Colouring(title, np.asarray(values, dtype=np.float64), categorical=False)


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


def points_table(frame: pd.DataFrame, coords: np.ndarray, colouring: Colouring, overlap: np.ndarray) -> pd.DataFrame:
    """The map's numbers, for download: one row per point of `frame` (its `row_id` and `text`)."""
    return pd.DataFrame({"#": np.arange(len(frame)), "row_id": frame["row_id"].to_numpy(),
                         "text": frame["text"].to_numpy(), "x": coords[:, 0], "y": coords[:, 1],
                         colouring.title: colouring.values, "neighbour overlap": overlap})


def compare_points(frame: pd.DataFrame, a: np.ndarray, b: np.ndarray, colouring: Colouring) -> pd.DataFrame:
    """Both maps' numbers, for download: one row per point of `frame` (its `row_id` and `text`)."""
    return pd.DataFrame({"#": np.arange(len(frame)), "row_id": frame["row_id"].to_numpy(),
                         "text": frame["text"].to_numpy(), "A x": a[:, 0], "A y": a[:, 1], "B x": b[:, 0],
                         "B y": b[:, 1], colouring.title: colouring.values})
