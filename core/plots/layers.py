"""Figures of the Layers page: per-layer curves with a baseline band, token heatmaps, per-layer bars."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from core.analysis.layers import Band
from core.plots.labels import label, plain_text

BAND_COLOUR = "rgba(120, 120, 120, 0.22)"
VALUES_UP_TO = 24  # tokens per axis up to which cell values are written in heatmaps


def pair_colour(index: int) -> str:
    """The colour of pair `index`, the same in every figure of the page."""
    return qualitative.D3[index % len(qualitative.D3)]


def layer_curves(curves: np.ndarray, labels: Sequence[str], hovers: Sequence[str], colours: Sequence[str], *,
                 y_title: str, band: Band | None = None) -> go.Figure:
    """One line per row of `curves` (rows, layers + 1) across layers 0 … L, with an optional grey band."""
    layers = list(range(curves.shape[1]))
    traces = []
    if band is not None:
        outline = list(band.mean + band.std) + list((band.mean - band.std)[::-1])
        traces += [go.Scatter(x=layers + layers[::-1], y=outline, fill="toself", fillcolor=BAND_COLOUR, mode="lines",
                              line={"width": 0}, hoverinfo="skip", name="random token pairs (mean ± 1 sd)"),
                   go.Scatter(x=layers, y=band.mean, mode="lines", line={"color": "grey", "dash": "dot"},
                              name="random pairs, mean",
                              hovertemplate="layer %{x}: %{y:.3f}<extra>random pairs</extra>")]
    traces += [go.Scatter(x=layers, y=row, mode="lines+markers", name=name, line={"color": colour},
                          text=[plain_text(hover)] * len(layers),
                          hovertemplate="%{text}<br>layer %{x}: %{y:.3f}<extra></extra>")
               for row, name, hover, colour in zip(curves, labels, hovers, colours)]
    fig = go.Figure(traces, layout={"xaxis": {"title": "layer (0 = embeddings)", "tickmode": "array",
                                              "tickvals": layers},
                                    "yaxis": {"title": y_title}, "height": 420, "margin": {"t": 30, "b": 40},
                                    "legend": {"orientation": "h", "y": -0.2}})
    return fig


def _tick_labels(tokens: Sequence[str], limit: int = 14) -> list[str]:
    return [label(t, limit) for t in tokens]


def token_heatmap(matrix: np.ndarray, rows: Sequence[str], columns: Sequence[str], *, colour_title: str,
                  colourscale: str = "Viridis", zmin: float | None = None, zmax: float | None = None,
                  x_title: str = "", y_title: str = "", values: bool = True) -> go.Figure:
    """Rows × columns of tokens; positions on the axes so that repeated tokens keep their own cells."""
    show_values = values and max(matrix.shape) <= VALUES_UP_TO
    hover = [[f"{plain_text(r)} → {plain_text(c)}" for c in columns] for r in rows]
    fig = go.Figure(go.Heatmap(
        z=matrix, x=list(range(len(columns))), y=list(range(len(rows))), colorscale=colourscale, zmin=zmin,
        zmax=zmax, texttemplate="%{z:.2f}" if show_values else None,
        customdata=hover, hovertemplate="%{customdata}: %{z:.3f}<extra></extra>",
        colorbar={"title": {"text": colour_title}}))
    side = max(360, min(900, 28 * max(matrix.shape) + 140))
    fig.update_layout(height=side, margin={"t": 30, "l": 10, "r": 10, "b": 10},
                      xaxis={"title": x_title, "tickmode": "array", "tickvals": list(range(len(columns))),
                             "ticktext": _tick_labels(columns), "tickangle": -45, "side": "top"},
                      yaxis={"title": y_title, "tickmode": "array", "tickvals": list(range(len(rows))),
                             "ticktext": _tick_labels(rows), "autorange": "reversed"})
    return fig


def layer_bars(values: np.ndarray, layers: Sequence[int], *, y_title: str, y_range: tuple[float, float] | None = None,
               hover_format: str = ".3f") -> go.Figure:
    fig = go.Figure(go.Bar(x=list(layers), y=values, text=[f"{v:{hover_format}}" for v in values],
                           textposition="outside", hovertemplate=f"layer %{{x}}: %{{y:{hover_format}}}<extra></extra>"))
    fig.update_layout(xaxis={"title": "layer", "tickmode": "array", "tickvals": list(layers)},
                      yaxis={"title": y_title, "range": list(y_range) if y_range else None},
                      height=360, margin={"t": 30, "b": 40})
    return fig
