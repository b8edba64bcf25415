"""Figures of a sparse model's terms: a text's heaviest terms coloured by where each comes from, a pair's score
split into the terms both texts hold, and how many terms each layer activates."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from core.analysis.terms import ORIGINS, TermSplit, TextTerms
from core.plots.labels import plain_text
from core.plots.layers import pair_colour

TOP_TERMS = 30
ORIGIN_COLOURS = {"in the text": "#1c7ed6", "in the prompt": "#868e96", "added by the model": "#e8590c",
                  "dimension": "#1c7ed6"}


def _bars(frame: pd.DataFrame, value: str, *, title: str, x_title: str) -> go.Figure:
    figure = go.Figure()
    labels = [plain_text(term) for term in frame["term"]]
    for origin in [*ORIGINS, "dimension"]:
        rows = frame["origin"] == origin if "origin" in frame else pd.Series(origin == "dimension", frame.index)
        if rows.any():
            figure.add_bar(x=frame.loc[rows, value], y=[labels[i] for i in range(len(frame)) if rows.iloc[i]],
                           orientation="h", name=origin, marker_color=ORIGIN_COLOURS[origin],
                           hovertemplate="%{y}: %{x:.3f}<extra>" + origin + "</extra>")
    figure.update_layout(title=title or None, barmode="overlay", height=max(240, 60 + 20 * len(frame)),
                         margin=dict(l=10, r=10, t=50 if title else 30, b=10),
                         legend=dict(orientation="h", y=1.02, yanchor="bottom"), xaxis=dict(title=x_title),
                         yaxis=dict(categoryorder="array", categoryarray=labels[::-1], automargin=True))
    return figure


def terms_figure(terms: TextTerms, *, top: int = TOP_TERMS, title: str = "") -> go.Figure:
    """The text's `top` heaviest terms, heaviest at the top; blue: in the text, grey: in its prompt, orange: added
    by the model (its expansion)."""
    return _bars(terms.table.head(top), "weight", title=title, x_title="weight")


def split_figure(split: TermSplit, *, top: int = TOP_TERMS) -> go.Figure:
    """The shared terms' contributions to the pair's score, largest at the top."""
    frame = split.table.head(top).assign(origin="in the text")
    figure = _bars(frame, "contribution", title="", x_title=f"share of the {split.similarity} score")
    figure.update_traces(marker_color="#2b8a3e", showlegend=False, hovertemplate="%{y}: %{x:.4f}<extra></extra>")
    return figure


def active_terms_figure(active: pd.DataFrame) -> go.Figure:
    """Active terms per layer, one line per text (from `LayerTerms.active`), on a log scale: layer 0 activates
    thousands, the last a few dozen."""
    figure = go.Figure()
    for text, rows in active.groupby("text", sort=True):
        figure.add_scatter(x=rows["layer"], y=rows["active terms"], mode="lines+markers", name=f"S{text}",
                           line={"color": pair_colour(int(text) - 1)},
                           hovertemplate=f"S{text}, " + "layer %{x}: %{y:,} terms<extra></extra>")
    layers = sorted(active["layer"].unique().tolist())
    figure.update_layout(xaxis={"title": "layer (0 = embeddings)", "tickmode": "array", "tickvals": layers},
                         yaxis={"title": "active terms (log scale)", "type": "log"}, height=340,
                         margin=dict(l=10, r=10, t=30, b=10), legend=dict(orientation="h", y=1.02, yanchor="bottom"))
    return figure
