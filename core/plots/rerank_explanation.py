"""Figures of why a reranker scored a pair, from plain arrays: the query's and the text's tokens in reading order,
wrapped into lines and coloured by each token's share of the attribution; the deletion check's score curves; and the
same token grid for the difference between two texts of one query."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from core.plots.labels import label, plain_text

PER_LINE = 10  # tokens on one line of the grid
TOKEN_CHARS = 14
RANDOM, MEAN, ATTRIBUTED = "rgba(134, 142, 150, 0.35)", "#495057", "#c92a2a"


def _lines(groups: Sequence[str], per_line: int) -> list[tuple[str, list[int]]]:
    """The positions of each group in order, cut into lines of `per_line`; each line named by its group (numbered
    where the group takes several lines)."""
    order = list(dict.fromkeys(groups))
    lines: list[tuple[str, list[int]]] = []
    for group in order:
        positions = [i for i, g in enumerate(groups) if g == group]
        chunks = [positions[start:start + per_line] for start in range(0, len(positions), per_line)] or [[]]
        for number, chunk in enumerate(chunks, start=1):
            lines.append((group if len(chunks) == 1 else f"{group} · {number}", chunk))
    return lines


def token_grid(tokens: Sequence[str], values: np.ndarray, groups: Sequence[str], *, per_line: int = PER_LINE,
               title: str = "") -> go.Figure:
    """Each token in reading order, a line of `per_line` at most, a group (the query, the text) starting a new
    line; coloured by its share of all the attribution (its value over the sum of the absolute values): red raised
    the score above the baseline's, blue lowered it."""
    values = np.asarray(values, dtype=np.float64)
    total = float(np.abs(values).sum()) or 1.0
    shares = values / total
    span = float(np.abs(shares).max()) if shares.size else 1.0
    lines = _lines(groups, per_line)
    width = max([len(positions) for _, positions in lines] + [1])
    z = [[float(shares[i]) for i in positions] + [None] * (width - len(positions)) for _, positions in lines]
    text = [[label(tokens[i], TOKEN_CHARS) for i in positions] + [""] * (width - len(positions))
            for _, positions in lines]
    hover = [[f"{plain_text(tokens[i])} (position {i})<br>attribution {values[i]:+.4f}<br>share {shares[i]:+.1%}"
              for i in positions] + [""] * (width - len(positions)) for _, positions in lines]
    names = [name for name, _ in lines]
    figure = go.Figure(go.Heatmap(
        z=z, x=list(range(width)), y=names, zmin=-(span or 1.0), zmax=span or 1.0, colorscale="RdBu_r",
        text=text, texttemplate="%{text}", customdata=hover, hovertemplate="%{customdata}<extra></extra>",
        xgap=2, ygap=2, colorbar=dict(title=dict(text="share", side="right"), tickformat="+.0%")))
    figure.update_layout(height=int(90 + 34 * len(lines)), margin=dict(l=10, r=10, t=40 if title else 10, b=10),
                         title=title or None)
    figure.update_xaxes(visible=False)
    figure.update_yaxes(type="category", autorange="reversed", categoryorder="array", categoryarray=names)
    return figure


def deletion_figure(removed: np.ndarray, attributed: np.ndarray, random: np.ndarray, *,
                    title: str = "The score as the text's tokens are removed") -> go.Figure:
    """The score against the text's tokens removed: most attributed first (red), each random order (thin grey) and
    their mean (dark, dashed); the area between the red and the dark curves shaded."""
    removed = np.asarray(removed)
    random = np.atleast_2d(np.asarray(random, dtype=np.float64))
    figure = go.Figure()
    for number, row in enumerate(random, start=1):
        figure.add_scatter(x=removed, y=row, mode="lines", line=dict(color=RANDOM, width=1), showlegend=number == 1,
                           name="each random order", legendgroup="random",
                           hovertemplate=f"random order {number}: %{{y:.4f}} after %{{x}} removed<extra></extra>")
    figure.add_scatter(x=removed, y=random.mean(axis=0), mode="lines", name="random orders (mean)",
                       line=dict(color=MEAN, width=2, dash="dash"),
                       hovertemplate="random mean: %{y:.4f} after %{x} removed<extra></extra>")
    figure.add_scatter(x=removed, y=attributed, mode="lines+markers", name="most attributed first",
                       line=dict(color=ATTRIBUTED, width=2.5), marker=dict(size=5), fill="tonexty",
                       fillcolor="rgba(201, 42, 42, 0.12)",
                       hovertemplate="most attributed first: %{y:.4f} after %{x} removed<extra></extra>")
    figure.update_layout(height=340, margin=dict(l=10, r=10, t=40, b=10),
                         title=plain_text(title),
                         legend=dict(orientation="h", y=1.0, yanchor="bottom", x=1, xanchor="right"),
                         xaxis=dict(title="tokens of the text removed", dtick=max(1, len(removed) // 10)),
                         yaxis=dict(title="the reranker's score"))
    return figure
