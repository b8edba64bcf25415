"""Figures of what each layer knows (core.evaluation.probing): the probe's accuracy by layer with its interval, the
same architecture untrained, the words' TF-IDF baseline, the labels shuffled (chance) and the majority class, the
online code's compression below; a layer's
confusion matrix; the texts along a concept's direction."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.plots.labels import hover_text, plain_text
from core.plots.layers import BAND_COLOUR

PROBE, UNTRAINED, WORDS, SHUFFLED, MAJORITY = "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#7f7f7f"


def probe_figure(rows: pd.DataFrame, majority: float, *, title: str = "") -> go.Figure:
    """Accuracy by layer (the probe with its 95% interval, the untrained architecture's probe where there is one,
    TF-IDF, the labels shuffled, the majority class) above the online code's compression."""
    layers = rows["layer"].tolist()
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.68, 0.32], vertical_spacing=0.1)
    band = [*rows["accuracy_high"], *rows["accuracy_low"][::-1]]
    figure.add_trace(go.Scatter(x=layers + layers[::-1], y=band, fill="toself", fillcolor=BAND_COLOUR, mode="lines",
                                line={"width": 0}, hoverinfo="skip", name="probe, 95% interval over the folds"),
                     row=1, col=1)
    lines = (("accuracy", "probe", PROBE, "solid"),
             ("untrained_accuracy", "untrained (random weights)", UNTRAINED, "solid"),
             ("tfidf_accuracy", "TF-IDF of the words", WORDS, "dash"),
             ("shuffled_accuracy", "labels shuffled (chance)", SHUFFLED, "dot"))
    for column, name, colour, dash in lines:
        if rows[column].isna().all():  # no untrained baseline for this model
            continue
        figure.add_trace(go.Scatter(x=layers, y=rows[column], mode="lines+markers", name=name,
                                    line={"color": colour, "dash": dash},
                                    hovertemplate=f"layer %{{x}}: %{{y:.3f}}<extra>{name}</extra>"), row=1, col=1)
    figure.add_trace(go.Scatter(x=layers, y=[majority] * len(layers), mode="lines", name="majority class",
                                line={"color": MAJORITY, "dash": "dot"},
                                hovertemplate="%{y:.3f}<extra>majority class</extra>"), row=1, col=1)
    figure.add_trace(go.Bar(x=layers, y=rows["compression"], name="compression (online code)",
                            marker={"color": PROBE}, opacity=0.6,
                            hovertemplate="layer %{x}: %{y:.2f}×<extra>uniform code / online code</extra>"),
                     row=2, col=1)
    figure.update_yaxes(title_text="accuracy", range=[0, 1.02], row=1, col=1)
    figure.update_yaxes(title_text="compression", row=2, col=1)
    figure.update_xaxes(title_text="layer (0 = embeddings)", tickmode="array", tickvals=layers, row=2, col=1)
    figure.update_layout(height=520, title={"text": plain_text(title)} if title else None,
                         margin={"t": 40 if title else 20, "b": 40}, legend={"orientation": "h", "y": -0.18})
    return figure


def confusion_figure(table: pd.DataFrame, *, layer: int) -> go.Figure:
    """A layer's confusion matrix: rows the given labels, columns the probe's, each cell a count of texts."""
    names = [plain_text(str(name)) for name in table.columns]
    figure = go.Figure(go.Heatmap(z=table.to_numpy(), x=names, y=[plain_text(str(n)) for n in table.index],
                                  colorscale="Blues", texttemplate="%{z}",
                                  hovertemplate="label %{y}, probe %{x}: %{z} texts<extra></extra>",
                                  colorbar={"title": {"text": "texts"}}))
    figure.update_layout(height=120 + 40 * len(names), margin={"t": 30, "b": 40},
                         title={"text": f"Layer {layer}: label (rows) against the probe (columns)"},
                         xaxis={"title": "the probe says"}, yaxis={"title": "label", "autorange": "reversed"})
    return figure


def direction_figure(scores: np.ndarray, labels: Sequence[str], texts: Sequence[str], *, first: str,
                     second: str) -> go.Figure:
    """Each text's score along a concept's direction, a row of points per label."""
    frame = pd.DataFrame({"score": scores, "label": list(labels), "text": list(texts)})
    figure = go.Figure()
    for name, group in frame.groupby("label", sort=False):
        figure.add_trace(go.Box(x=group["score"], name=plain_text(str(name)), boxpoints="all", jitter=0.4,
                                pointpos=0, fillcolor="rgba(0,0,0,0)", line={"width": 1},
                                text=[hover_text(text, limit=120) for text in group["text"]],
                                hovertemplate="%{text}<br>score %{x:.2f}<extra></extra>"))
    figure.update_layout(height=160 + 40 * frame["label"].nunique(), showlegend=False, margin={"t": 30, "b": 40},
                         xaxis={"title": f"← {plain_text(second)} · score along the direction · "
                                         f"{plain_text(first)} →"})
    return figure
