"""A query and one hit side by side, token by token: the query's tokens in a column on the left, the hit's on the
right, and a line from each query token to the hit token it matched best (MaxSim), drawn thicker and darker the more
it adds to the score. Expansion and prompt tokens are drawn apart from the typed ones."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core.analysis.late.alignment import Alignment
from core.analysis.late.matches import token_use
from core.plots.labels import label

COLOURS = {"typed": "#1c7ed6", "expansion": "#e8590c", "prompt": "#868e96"}
DOCUMENT = "#2b8a3e"
ROW_PX = 22  # height of one token's row
TOKEN_CHARS = 24


def _positions(count: int, span: int) -> np.ndarray:
    """`count` rows spread over the rows 0 … span - 1, top down."""
    if count <= 1:
        return np.zeros(count)
    return -np.linspace(0, span - 1, count)


def token_matches_figure(alignment: Alignment) -> go.Figure:
    query, document = alignment.query, alignment.document
    span = max(len(query.tokens), len(document.tokens), 1)
    q_y, d_y = _positions(len(query.tokens), span), _positions(len(document.tokens), span)
    top = float(alignment.shares.max()) if len(alignment.shares) and alignment.shares.max() > 0 else 1.0
    figure = go.Figure()
    if len(document.tokens):
        for row, column in enumerate(alignment.best):
            weight = max(float(alignment.shares[row]) / top, 0.0)
            figure.add_scatter(x=[0, 1], y=[q_y[row], d_y[column]], mode="lines", showlegend=False, hoverinfo="skip",
                               line=dict(color=COLOURS[token_use(alignment, row)], width=0.5 + 4 * weight),
                               opacity=0.25 + 0.75 * weight)
    for use, colour in COLOURS.items():
        rows = [row for row in range(len(query.tokens)) if token_use(alignment, row) == use]
        if not rows:
            continue
        figure.add_scatter(
            x=[0] * len(rows), y=q_y[rows], mode="markers+text", name=f"query: {use} tokens",
            text=[label(query.tokens[row], TOKEN_CHARS) for row in rows], textposition="middle left",
            marker=dict(color=colour, size=9),
            customdata=[[label(document.tokens[alignment.best[row]], TOKEN_CHARS) if len(document.tokens) else "—",
                         float(alignment.grid[row, alignment.best[row]]) if len(document.tokens) else float("nan"),
                         float(alignment.shares[row])] for row in rows],
            hovertemplate="%{text} → %{customdata[0]}<br>similarity %{customdata[1]:.3f}<br>"
                          "share of the score %{customdata[2]:.3f}<extra></extra>")
    figure.add_scatter(x=[1] * len(document.tokens), y=d_y, mode="markers+text", name="hit tokens",
                       text=[label(token, TOKEN_CHARS) for token in document.tokens], textposition="middle right",
                       marker=dict(color=DOCUMENT, size=9), hovertemplate="%{text}<extra></extra>")
    figure.update_layout(
        height=max(260, 80 + ROW_PX * span), margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        xaxis=dict(range=[-0.9, 1.9], visible=False, fixedrange=True),
        yaxis=dict(range=[-span + 0.3, 0.7], visible=False, fixedrange=True))
    return figure
