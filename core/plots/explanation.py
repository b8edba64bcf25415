"""Figures of an explanation: the token × token contributions, each text's tokens shaded by their totals, the split
into what every text shares and what these two share, and integrated-gradients attributions."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core.analysis.attribution import TokenAttribution
from core.analysis.explanation import PairExplanation, Side
from core.plots.labels import label, plain_text
from core.plots.lines import vline, vline_label

TOKEN_CHARS = 14


def _kept(side: Side, hide_special: bool) -> list[int]:
    """Positions to draw (specials hidden from the figure only; they stay in every sum)."""
    kept = [i for i, special in enumerate(side.special) if not (hide_special and special)]
    return kept or list(range(len(side.tokens)))


def _names(tokens: list[str], positions: list[int], prompt_tokens: int = 0) -> list[str]:
    """Tick labels: the escaped token, numbered so repeated tokens stay apart; a prompt's tokens marked ⟨p⟩."""
    return [f"{label(tokens[i], TOKEN_CHARS)} ·{i}" + (" ⟨p⟩" if i < prompt_tokens else "") for i in positions]


def _prompt_note(side: Side) -> str:
    if not side.prompt_tokens:
        return ""
    return (f"; ⟨p⟩: the first {side.prompt_tokens} tokens are the prompt, "
            + ("counted by pooling" if side.prompt_pooled else "left out of pooling (they add 0)"))


def _span(values: np.ndarray) -> float:
    return float(np.abs(values).max()) if values.size else 1.0


def contribution_heatmap(explanation: PairExplanation, *, hide_special: bool = False) -> go.Figure:
    """Rows are A's tokens, columns B's; red cells add to the score, blue ones take from it."""
    rows, cols = _kept(explanation.a, hide_special), _kept(explanation.b, hide_special)
    z = explanation.matrix[np.ix_(rows, cols)]
    span = _span(explanation.matrix) or 1.0
    height = int(min(900, max(300, 110 + 22 * len(rows))))
    return go.Figure(go.Heatmap(
        z=z, x=_names(explanation.b.tokens, cols, explanation.b.prompt_tokens),
        y=_names(explanation.a.tokens, rows, explanation.a.prompt_tokens), zmin=-span, zmax=span,
        colorscale="RdBu_r", colorbar=dict(title=dict(text="contribution", side="right")),
        hovertemplate="A: %{y}<br>B: %{x}<br>contribution %{z:.4f}<extra></extra>"),
        layout=dict(height=height, margin=dict(l=10, r=10, t=40, b=10),
                    title=f"Layer {explanation.layer}, {explanation.pooling} pooling: the cells sum to "
                          f"{explanation.total:.4f} = the cosine{_prompt_note(explanation.a)}",
                    xaxis=dict(type="category", tickangle=-45, title="tokens of B"),
                    yaxis=dict(type="category", autorange="reversed", title="tokens of A")))


def token_strip(side: Side, *, name: str, hide_special: bool = False) -> go.Figure:
    """The text's tokens in order, each shaded by its total contribution to the score."""
    positions = _kept(side, hide_special)
    totals = side.totals[positions]
    span = _span(side.totals) or 1.0
    return go.Figure(go.Heatmap(
        z=[totals], x=_names(side.tokens, positions, side.prompt_tokens), y=[name], zmin=-span, zmax=span,
        colorscale="RdBu_r",
        text=[[plain_text(side.tokens[i]) for i in positions]], texttemplate="%{text}", showscale=False,
        hovertemplate="%{x}: total %{z:.4f}<extra></extra>"),
        layout=dict(height=120, margin=dict(l=10, r=10, t=10, b=10),
                    xaxis=dict(type="category", showticklabels=False)))


def split_bar(explanation: PairExplanation) -> go.Figure:
    """The score as two parts: along the layer's mean direction (shared by all texts) and beyond it."""
    parts = {"shared by all texts at this layer": explanation.shared, "shared by these two": explanation.specific}
    score = explanation.score
    return go.Figure([go.Bar(x=[value], y=["score"], orientation="h", name=name, marker_color=colour,
                             hovertemplate=f"{name}: %{{x:.4f}}<extra></extra>")
                      for (name, value), colour in zip(parts.items(), ("#adb5bd", "#d6336c"))],
                     layout=dict(barmode="relative", height=200, margin=dict(l=10, r=10, t=30, b=10),
                                 legend=dict(orientation="h", y=-0.6, yanchor="top"),
                                 xaxis=dict(title="part of the cosine"),
                                 shapes=[vline(score)], annotations=[vline_label(score, f"cosine {score:.3f}")]))


def attribution_bars(attribution: TokenAttribution, *, name: str) -> go.Figure:
    """Each token's integrated-gradients attribution (red raises the score above the baseline's)."""
    names = _names(attribution.tokens, list(range(len(attribution.tokens))))
    colours = ["#c92a2a" if value >= 0 else "#1c7ed6" for value in attribution.attributions]
    figure = go.Figure(go.Bar(x=names, y=attribution.attributions, marker_color=colours,
                              hovertemplate="%{x}: %{y:.4f}<extra></extra>"))
    figure.update_layout(height=280, margin=dict(l=10, r=10, t=40, b=10),
                         title=f"{name}: attributions sum to {attribution.attributions.sum():.4f}; the score moved "
                               f"{attribution.change:.4f} from the baseline "
                               f"(gap {round(attribution.gap, 4) + 0.0:+.4f})")
    figure.update_xaxes(type="category", tickangle=-45)
    return figure
