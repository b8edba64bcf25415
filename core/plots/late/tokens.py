"""Figures of late interaction: a text's tokens as a query and as a document (what the prompt, the query expansion
and the skiplist make of them), and the alignment behind one MaxSim score (every query token × document token, each
row's best match marked, each query token's share of the score beside it)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.analysis.late.alignment import BYTES_PER_VALUE, Alignment
from core.analysis.late.similarity import query_token_uses
from core.encoding.late.tokens import TOKEN_USES, TokenUses
from core.plots.labels import label, plain_text
from core.progress import byte_size

USE_COLOURS = {"typed": "#a5d8ff", "special": "#dee2e6", "prompt": "#ffd8a8", "expansion": "#e5dbff",
               "dropped": "#ffc9c9", "unscored": "#f8f9fa"}
SHARE_COLOURS = {"typed": "#1c7ed6", "expansion": "#7048e8", "prompt": "#f08c00"}
TOKEN_CHARS = 12
SCORE_NAMES = {"maxsim": "MaxSim", "meanmaxsim": "MeanMaxSim"}
PER_LINE = 16  # tokens a line of the token figure holds


def _discrete(colours: list[str]) -> list[tuple[float, str]]:
    """A colour scale that gives integer code i the i-th colour (with zmin -0.5 and zmax len - 0.5)."""
    count = len(colours)
    return [stop for i, colour in enumerate(colours) for stop in ((i / count, colour), ((i + 1) / count, colour))]


def token_uses_figure(sides: dict[str, TokenUses], width: int) -> go.Figure:
    """Each role's ("query", "document") tokens in order, `PER_LINE` to a line, coloured by what becomes of each; the
    hover gives the bytes its vector takes (a `width`-dimension float32 vector per scored token, none for the
    others)."""
    uses = list(USE_COLOURS)
    z, text, hover, rows = [], [], [], []
    for role, side in sides.items():
        size = byte_size(side.vectors * width * BYTES_PER_VALUE)
        for start in range(0, max(len(side.tokens), 1), PER_LINE):
            line = list(zip(side.tokens, side.uses))[start:start + PER_LINE]
            pad = PER_LINE - len(line)
            rows.append(f"{role}: {side.vectors} vectors, {size}" if start == 0 else
                        f"{role}, tokens {start + 1}–{start + len(line)}")
            z.append([uses.index(use) for _, use in line] + [None] * pad)
            text.append([label(token, TOKEN_CHARS) for token, _ in line] + [""] * pad)
            hover.append([f"{role}, position {start + i}: {plain_text(token)}<br>{TOKEN_USES[use]}<br>"
                          + (f"{width * BYTES_PER_VALUE:,} bytes ({width} float32)"
                             if use not in ("dropped", "unscored") else "no vector, 0 bytes")
                          for i, (token, use) in enumerate(line)] + [""] * pad)
    figure = go.Figure(go.Heatmap(
        z=z, y=rows, x=list(range(PER_LINE)), zmin=-0.5, zmax=len(uses) - 0.5,
        colorscale=_discrete(list(USE_COLOURS.values())), showscale=False, xgap=3, ygap=8, customdata=hover,
        text=text, texttemplate="%{text}", textfont=dict(size=12), hovertemplate="%{customdata}<extra></extra>"))
    seen = {use for side in sides.values() for use in side.uses}
    for use in uses:  # the legend: one entry per use the texts' tokens have
        if use in seen:
            figure.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=TOKEN_USES[use],
                                        marker=dict(symbol="square", size=12, color=USE_COLOURS[use],
                                                    line=dict(width=1, color="#868e96"))))
    figure.update_layout(height=110 + 44 * len(rows), margin=dict(l=10, r=10, t=10, b=10),
                         legend=dict(orientation="h", y=-0.08, yanchor="top"), plot_bgcolor="white")
    figure.update_xaxes(showticklabels=False, showgrid=False, zeroline=False)
    figure.update_yaxes(autorange="reversed", showgrid=False)
    return figure


def _names(tokens: tuple[str, ...], marks: list[str] | None = None) -> list[str]:
    """Axis categories: the escaped token numbered by position (repeated tokens stay apart), ⟨e⟩ an expansion token
    and ⟨p⟩ a prompt's."""
    tags = {"expansion": " ⟨e⟩", "prompt": " ⟨p⟩"}
    return [f"{label(token, TOKEN_CHARS)} ·{i}" + (tags.get(marks[i], "") if marks else "")
            for i, token in enumerate(tokens)]


def alignment_figure(alignment: Alignment, *, query_name: str = "query", document_name: str = "document") -> go.Figure:
    """Left, every query token (row) × document token (column) similarity, each row's best match boxed; right, each
    query token's share of the score, coloured by its part (typed, expansion, prompt)."""
    marks = query_token_uses(alignment.query)
    rows, cols = _names(alignment.query.tokens, marks), _names(alignment.document.tokens)
    grid, shares = alignment.grid, alignment.shares
    span = float(np.abs(grid).max()) if grid.size else 1.0
    figure = make_subplots(rows=1, cols=2, shared_yaxes=True, column_widths=[0.76, 0.24], horizontal_spacing=0.02,
                           subplot_titles=(f"tokens of the {document_name}", "share of the score"))
    figure.add_trace(go.Heatmap(
        z=grid, x=cols, y=rows, zmin=-span, zmax=span, colorscale="RdBu_r",
        colorbar=dict(title=dict(text="similarity", side="right"), len=0.8),
        hovertemplate=f"{query_name}: %{{y}}<br>{document_name}: %{{x}}<br>similarity %{{z:.4f}}<extra></extra>"),
        row=1, col=1)
    if len(cols):  # a white box under a black one, so that the mark shows on dark cells too
        for colour, size, line, shown in (("white", 17, 4, False), ("#212529", 16, 2, True)):
            figure.add_trace(go.Scatter(
                x=[cols[c] for c in alignment.best], y=rows, mode="markers", name="best match of the row",
                showlegend=shown, marker=dict(symbol="square-open", size=size, color=colour, line=dict(width=line)),
                hovertemplate=f"{query_name}: %{{y}}<br>best match: %{{x}}<extra></extra>"), row=1, col=1)
    score = alignment.score or 1.0
    for use, colour in SHARE_COLOURS.items():
        picked = [i for i, mark in enumerate(marks) if mark == use]
        if not picked:
            continue
        figure.add_trace(go.Bar(
            x=shares[picked], y=[rows[i] for i in picked], orientation="h", marker_color=colour,
            name={"typed": "the text's tokens", "expansion": "query expansion", "prompt": "prompt or marker"}[use],
            customdata=[[cols[alignment.best[i]] if len(cols) else "—", shares[i] / score] for i in picked],
            hovertemplate="%{y} → %{customdata[0]}<br>share %{x:.4f} (%{customdata[1]:.0%} of the score)"
                          "<extra></extra>"), row=1, col=2)
    divided = " ÷ query tokens" if alignment.similarity == "meanmaxsim" else ""
    figure.update_layout(
        height=int(min(1100, max(320, 140 + 22 * len(rows)))), margin=dict(l=10, r=10, t=70, b=10),
        title=dict(text=f"{SCORE_NAMES.get(alignment.similarity, alignment.similarity)}: the boxed cells{divided} "
                        f"sum to {alignment.score:.4f}; a token of the {document_name} that no query token picks "
                        "adds nothing", font=dict(size=14)),
        legend=dict(orientation="h", y=-0.12), bargap=0.15)
    figure.update_xaxes(type="category", tickangle=-45, row=1, col=1)
    figure.update_yaxes(type="category", autorange="reversed", row=1, col=1, title=f"tokens of the {query_name}")
    figure.update_xaxes(zeroline=True, zerolinecolor="#868e96", row=1, col=2)
    return figure
