"""The top-k list of a query as bars: score per hit, coloured by how many of the other rankers also found the text
(the hover names them)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.colors import sample_colorscale, sequential

from core.analysis.ranking import SCORE_NAMES, QueryRanking
from core.plots.labels import hover_text, label
from core.plots.lines import vline, vline_label

SHORT = {"TF-IDF": "TF-IDF", "bag of words": "BoW", "BM25": "BM25"}
NONE_ELSE = "#adb5bd"  # found by no other ranker; more of them: darker blue
LABEL_CHARS = 60
ALONE = "#1c7ed6"  # a ranker with nothing beside it to compare with
# bars are coloured from the scale's own colours, not its name: plotly looks a name up by inspecting its modules


def agreement_label(count: int, others: int) -> str:
    """"only this ranker", "also 1 other", … "also all 3 others"."""
    if count == 0:
        return "only this ranker"
    if count == others and others > 1:
        return f"also all {others} others"
    return f"also {count} other{'s' if count > 1 else ''}"


def _found_by(ranking: QueryRanking, *, threshold: float) -> tuple[list[str], list[float], list[list[str]]]:
    """Texts and scores of the primary list at or above `threshold`, best first, and which others found each."""
    side = ranking.side_by_side()
    side = side[(side["score"] >= threshold) & side["hit"]]
    found_by = {other: side[f"{other} rank"].notna().to_numpy() for other in ranking.others}
    found = [[other for other in ranking.others if found_by[other][row]] for row in range(len(side))]
    return side["text"].tolist(), side["score"].tolist(), found


def hits_figure(ranking: QueryRanking, *, threshold: float | None = None, title: str = "") -> go.Figure:
    """Horizontal bars best first; user texts go into the figure escaped, never as HTML."""
    texts, scores, found = _found_by(ranking, threshold=-float("inf") if threshold is None else threshold)
    labels = [f"{rank}. {label(text, LABEL_CHARS)}" for rank, text in enumerate(texts, start=1)]
    score = ranking.scores.get(ranking.primary, "cosine")
    others = len(ranking.others)
    traces = []
    for count in range(others + 1):
        rows = [i for i, names in enumerate(found) if len(names) == count]
        name = agreement_label(count, others)
        colour = ALONE if not others else NONE_ELSE if count == 0 else \
            sample_colorscale(sequential.Blues, [0.35 + 0.65 * count / others])[0]
        traces.append(go.Bar(
            x=[scores[i] for i in rows], y=[labels[i] for i in rows], orientation="h", name=name,
            marker_color=colour, showlegend=bool(others),
            customdata=[[hover_text(texts[i], limit=300), ", ".join(SHORT.get(n, n) for n in found[i]) or "none"]
                        for i in rows],
            hovertemplate="%{customdata[0]}<br>" + SCORE_NAMES.get(score, score) + " %{x:.3f}"
                          + ("<br>also found by: %{customdata[1]}" if others else "") + "<extra></extra>"))
    line = threshold if threshold is not None and threshold > 0 else None
    low, high = min([0.0, *scores]), max([0.0, *scores])
    figure = go.Figure(traces, layout=dict(
        title=title or None, barmode="overlay", height=max(260, 60 + 26 * len(texts)),
        margin=dict(l=10, r=10, t=50 if title else 30, b=10), legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        xaxis=dict(title=SCORE_NAMES.get(score, score), range=[low, 1.0 if score == "cosine" else high * 1.05 or 1]),
        yaxis=dict(categoryorder="array", categoryarray=labels[::-1], automargin=True),
        shapes=[] if line is None else [vline(line, colour="#c92a2a")],
        annotations=[] if line is None else [vline_label(line, f"threshold {line:.2f}", xanchor="center")]))
    return figure
