"""The top-k list of a query as bars: score per hit, coloured by which lexical baselines also found it."""

from __future__ import annotations

import html
from collections.abc import Sequence

import plotly.graph_objects as go

from core.plots.heatmap import shorten

OVERLAP_COLOURS = {"also TF-IDF and BoW": "#2b8a3e", "also TF-IDF": "#1c7ed6", "also BoW": "#f59f00",
                   "model only": "#adb5bd"}
LABEL_CHARS = 60


def overlap_label(in_tfidf: bool, in_bow: bool) -> str:
    if in_tfidf and in_bow:
        return "also TF-IDF and BoW"
    if in_tfidf:
        return "also TF-IDF"
    return "also BoW" if in_bow else "model only"


def hits_figure(texts: Sequence[str], scores: Sequence[float], overlap: Sequence[str], *,
                threshold: float | None = None, title: str = "") -> go.Figure:
    """Horizontal bars best first; user texts go into the figure escaped, never as HTML."""
    labels = [f"{rank}. {html.escape(shorten(text, LABEL_CHARS))}" for rank, text in enumerate(texts, start=1)]
    figure = go.Figure()
    for name, colour in OVERLAP_COLOURS.items():
        rows = [i for i, o in enumerate(overlap) if o == name]
        figure.add_bar(
            x=[scores[i] for i in rows], y=[labels[i] for i in rows], orientation="h", name=name,
            marker_color=colour, customdata=[html.escape(shorten(texts[i], 300)) for i in rows],
            hovertemplate="%{customdata}<br>cosine %{x:.3f}<extra>" + name + "</extra>")
    if threshold is not None:
        figure.add_vline(x=threshold, line_dash="dash", line_color="#c92a2a",
                         annotation_text=f"threshold {threshold:.2f}", annotation_position="top")
    low = min([0.0, *scores])
    figure.update_layout(
        title=title or None, barmode="overlay", height=max(260, 60 + 26 * len(texts)),
        margin=dict(l=10, r=10, t=50 if title else 30, b=10), legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        xaxis=dict(title="cosine similarity", range=[low, 1.0]),
        yaxis=dict(categoryorder="array", categoryarray=labels[::-1], automargin=True))
    return figure
