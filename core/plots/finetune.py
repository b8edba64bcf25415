"""Figures of the Fine-tune page: the training loss curve and base-versus-fine-tuned bars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

BASE_COLOUR = "#9e9e9e"
TUNED_COLOUR = "#1f77b4"
SMOOTH_COLOUR = "#d62728"
METRIC_LABELS = {"spearman": "STS-B dev Spearman", "recall@1": "Recall@1", "recall@10": "Recall@10",
                 "mrr@10": "MRR@10"}


def loss_frame(losses: Sequence[tuple[int, float]], window: int = 10) -> pd.DataFrame:
    """Step, loss and its trailing moving average (the first points average what there is so far)."""
    frame = pd.DataFrame(list(losses), columns=["step", "loss"])
    frame["smoothed"] = frame["loss"].rolling(window, min_periods=1).mean()
    return frame


def loss_curve(losses: Sequence[tuple[int, float]], *, total: int | None = None, window: int = 10) -> go.Figure:
    """Loss per training step (thin) and its moving average (bold); the x axis spans the whole run."""
    frame = loss_frame(losses, window)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=frame["step"], y=frame["loss"], mode="lines+markers" if len(frame) < 40 else "lines",
                             name="loss per step", line={"color": TUNED_COLOUR, "width": 1}, opacity=0.6,
                             hovertemplate="step %{x}: %{y:.4f}<extra></extra>"))
    fig.add_trace(go.Scatter(x=frame["step"], y=frame["smoothed"], mode="lines",
                             name=f"moving average ({window} steps)", line={"color": SMOOTH_COLOUR, "width": 3},
                             hovertemplate="step %{x}: %{y:.4f}<extra>average</extra>"))
    xaxis: dict[str, object] = {"title": "training step"}
    if total:
        xaxis["range"] = [0, total + 0.5]
    fig.update_layout(xaxis=xaxis, yaxis={"title": "training loss", "rangemode": "tozero"}, height=340,
                      margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    return fig


def comparison_frame(before: Mapping[str, float], after: Mapping[str, float], split: str = "dev") -> pd.DataFrame:
    """One row per metric both sides have: base, fine-tuned and the change (STS-B measured on `split`)."""
    keys = [k for k in METRIC_LABELS if k in before and k in after]
    labels = [METRIC_LABELS[k].replace("dev", split) for k in keys]
    return pd.DataFrame({"base": [before[k] for k in keys], "fine-tuned": [after[k] for k in keys],
                         "change": [after[k] - before[k] for k in keys]}, index=pd.Index(labels, name="metric"))


def before_after_bars(before: Mapping[str, float], after: Mapping[str, float], *, base_name: str = "base",
                      tuned_name: str = "fine-tuned", split: str = "dev") -> go.Figure:
    """Grouped bars per metric: the base model (grey) beside the fine-tuned one (blue), values written on top."""
    frame = comparison_frame(before, after, split)
    fig = go.Figure()
    for column, name, colour in (("base", base_name, BASE_COLOUR), ("fine-tuned", tuned_name, TUNED_COLOUR)):
        fig.add_trace(go.Bar(x=list(frame.index), y=frame[column], name=name, marker_color=colour,
                             text=[f"{v:.3f}" for v in frame[column]], textposition="outside",
                             hovertemplate="%{x}: %{y:.4f}<extra>" + name.replace("<", "&lt;") + "</extra>"))
    low = min(0.0, float(frame[["base", "fine-tuned"]].min().min())) if len(frame) else 0.0
    fig.update_layout(barmode="group", yaxis={"title": "score (higher is better)", "range": [low, 1.08]},
                      height=340, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    return fig


DRIFT_LINES = {"cka": ("CKA with the start", "#1f77b4"), "overlap": ("neighbours kept (overlap@10)", "#2ca02c"),
               "spearman": ("STS-B Spearman (probe pairs)", "#d62728")}


def drift_frame(points: Sequence[Mapping[str, float]]) -> pd.DataFrame:
    """One row per checkpoint: step, CKA and overlap@10 with the start, the probe's Spearman."""
    return pd.DataFrame(list(points), columns=["step", *DRIFT_LINES])


def drift_curve(points: Sequence[Mapping[str, float]], *, total: int | None = None) -> go.Figure:
    """How far the model has moved from its start at each checkpoint, and how it does on the task, on one 0–1 axis."""
    frame = drift_frame(points)
    fig = go.Figure()
    for column, (name, colour) in DRIFT_LINES.items():
        fig.add_trace(go.Scatter(x=frame["step"], y=frame[column], mode="lines+markers", name=name,
                                 line={"color": colour, "width": 2},
                                 hovertemplate="step %{x}: %{y:.3f}<extra>" + name + "</extra>"))
    xaxis: dict[str, object] = {"title": "training step"}
    if total:
        xaxis["range"] = [-0.5, total + 0.5]
    low = min(0.0, float(frame[list(DRIFT_LINES)].min().min())) if len(frame) else 0.0
    fig.update_layout(xaxis=xaxis, yaxis={"title": "against the start (CKA, overlap) · Spearman",
                                          "range": [low - 0.02, 1.05]},
                      height=340, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    return fig
