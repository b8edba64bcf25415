"""Figures of retrieve-then-rerank: where each of a query's candidates moved (its first-stage rank on the left, its
reranked rank on the right), and what reranking a deeper top N buys and costs on a task."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.analysis.rerank import Reranked
from core.plots.labels import hover_text, label

UP, DOWN, STAYED = "#2b8a3e", "#c92a2a", "#adb5bd"
METRICS = ("recall@1", "recall@10", "mrr@10", "ndcg@10")
LABEL_CHARS = 42


def moves_figure(reranked: Reranked, *, reranker: str) -> go.Figure:
    """One line per candidate from its first-stage rank to its reranked rank: green where the reranker moved it up,
    red down, grey where it stayed."""
    table = reranked.table
    figure = go.Figure()
    for first, rank, move, text in zip(table["first-stage rank"], table["rank"], table["move"], table["text"]):
        colour = UP if move > 0 else DOWN if move < 0 else STAYED
        hover = hover_text(text, limit=300)
        figure.add_scatter(x=[0, 1], y=[first, rank], mode="lines+markers", showlegend=False,
                           line={"color": colour, "width": 2}, marker={"size": 7}, customdata=[hover, hover],
                           hovertemplate="%{customdata}<br>rank %{y}<extra></extra>")
    n = len(table)
    figure.add_scatter(x=[1.02] * n, y=table["rank"], mode="text", text=[label(t, LABEL_CHARS) for t in table["text"]],
                       textposition="middle right", showlegend=False, hoverinfo="skip")
    figure.update_layout(height=max(260, 50 + 26 * n), margin={"l": 10, "r": 10, "t": 30, "b": 10},
                         xaxis={"tickvals": [0, 1], "ticktext": [f"first stage: {reranked.first_stage}",
                                                                 f"reranked: {reranker}"], "range": [-0.1, 2.2],
                                "showgrid": False},
                         yaxis={"autorange": "reversed", "title": "rank", "dtick": 1 if n <= 20 else 5})
    return figure


def depth_figure(frame: pd.DataFrame) -> go.Figure:
    """The metrics against the number of first-stage texts reranked (0: the first stage alone), and the reranker's
    milliseconds per query as bars on the right axis."""
    figure = make_subplots(specs=[[{"secondary_y": True}]])
    figure.add_bar(x=frame["top N reranked"].astype(str), y=frame["ms per query"], name="ms per query",
                   marker_color="rgba(120, 120, 120, 0.3)", secondary_y=True,
                   hovertemplate="top %{x}: %{y:.0f} ms per query<extra></extra>")
    for metric in METRICS:
        if metric in frame:
            figure.add_scatter(x=frame["top N reranked"].astype(str), y=frame[metric], mode="lines+markers",
                               name=metric, hovertemplate="top %{x}: %{y:.3f}<extra>" + metric + "</extra>",
                               secondary_y=False)
    figure.update_layout(height=380, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                         legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
                         xaxis={"title": "first-stage texts reranked per query (0: the first stage alone)"})
    figure.update_yaxes(title_text="score", secondary_y=False)
    figure.update_yaxes(title_text="reranker ms per query", secondary_y=True, showgrid=False)
    return figure
