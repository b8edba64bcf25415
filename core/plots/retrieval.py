"""The top-k list of a query as bars: score per hit, coloured by which other rankers also found the text."""

from __future__ import annotations

import plotly.graph_objects as go

from core.analysis.ranking import QueryRanking
from core.plots.labels import hover_text, label

SHORT = {"TF-IDF": "TF-IDF", "bag of words": "BoW"}
OVERLAP_COLOURS = {"also TF-IDF and BoW": "#2b8a3e", "also TF-IDF": "#1c7ed6", "also BoW": "#f59f00",
                   "only this ranker": "#adb5bd"}
LABEL_CHARS = 60
ALONE = "#1c7ed6"  # a ranker with nothing beside it to compare with


def overlap_label(found_by: list[str]) -> str:
    """"also TF-IDF and BoW", "also TF-IDF", … or "only this ranker", from the other rankers that found a text."""
    return "also " + " and ".join(SHORT.get(name, name) for name in found_by) if found_by else "only this ranker"


def overlap_labels(ranking: QueryRanking, *, threshold: float = -1.0) -> tuple[list[str], list[float], list[str]]:
    """Texts, scores and overlap labels of the primary list at or above `threshold`, best first."""
    side = ranking.side_by_side()
    side = side[side["score"] >= threshold]
    found = [[other for other in ranking.others if not side[f"{other} rank"].isna().iloc[row]]
             for row in range(len(side))]
    return side["text"].tolist(), side["score"].tolist(), [overlap_label(names) for names in found]


def hits_figure(ranking: QueryRanking, *, threshold: float | None = None, title: str = "") -> go.Figure:
    """Horizontal bars best first; user texts go into the figure escaped, never as HTML."""
    texts, scores, overlap = overlap_labels(ranking, threshold=-1.0 if threshold is None else threshold)
    labels = [f"{rank}. {label(text, LABEL_CHARS)}" for rank, text in enumerate(texts, start=1)]
    figure = go.Figure()
    alone = not ranking.others
    for name, colour in OVERLAP_COLOURS.items():
        rows = [i for i, o in enumerate(overlap) if o == name]
        figure.add_bar(
            x=[scores[i] for i in rows], y=[labels[i] for i in rows], orientation="h", name=name,
            marker_color=ALONE if alone else colour, showlegend=not alone,
            customdata=[hover_text(texts[i], limit=300) for i in rows],
            hovertemplate="%{customdata}<br>cosine %{x:.3f}<extra>" + name + "</extra>")
    if threshold is not None and threshold > 0:
        figure.add_vline(x=threshold, line_dash="dash", line_color="#c92a2a",
                         annotation_text=f"threshold {threshold:.2f}", annotation_position="top")
    low = min([0.0, *scores])
    figure.update_layout(
        title=title or None, barmode="overlay", height=max(260, 60 + 26 * len(texts)),
        margin=dict(l=10, r=10, t=50 if title else 30, b=10), legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        xaxis=dict(title="cosine similarity", range=[low, 1.0]),
        yaxis=dict(categoryorder="array", categoryarray=labels[::-1], automargin=True))
    return figure
