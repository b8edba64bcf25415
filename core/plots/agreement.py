"""Figures of how two spaces agree: CKA layer by layer as a heatmap."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core.plots.labels import plain_text

VALUES_UP_TO = 25  # layers per axis up to which each cell carries its value


def cka_heatmap(matrix: np.ndarray, *, a_name: str, b_name: str) -> go.Figure:
    """A's layers as rows (0, the embeddings, at the top), B's as columns, coloured by linear CKA on a fixed 0–1
    scale."""
    rows, columns = matrix.shape
    a_label, b_label = plain_text(a_name), plain_text(b_name)
    fig = go.Figure(go.Heatmap(
        z=matrix, x=list(range(columns)), y=list(range(rows)), colorscale="Viridis", zmin=0, zmax=1,
        texttemplate="%{z:.2f}" if max(rows, columns) <= VALUES_UP_TO else None,
        hovertemplate=f"{a_label} layer %{{y}}<br>{b_label} layer %{{x}}<br>CKA %{{z:.3f}}<extra></extra>",
        colorbar={"title": {"text": "linear CKA"}}))
    cell = 34 if max(rows, columns) <= VALUES_UP_TO else 14
    fig.update_layout(height=max(320, min(900, cell * rows + 140)), margin={"t": 30, "l": 10, "r": 10, "b": 10},
                      xaxis={"title": f"{b_label}: layer", "tickmode": "array", "tickvals": list(range(columns)),
                             "side": "top", "constrain": "domain"},
                      yaxis={"title": f"{a_label}: layer", "tickmode": "array", "tickvals": list(range(rows)),
                             "autorange": "reversed"})
    return fig
