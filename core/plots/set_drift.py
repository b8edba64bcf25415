"""The figure of two sets compared layer by layer (core.evaluation.set_drift): the domain classifier's ROC AUC at
each layer with its 95% interval over the folds, beside chance (0.5), drawn as the probes' accuracy is drawn."""

from __future__ import annotations

import plotly.graph_objects as go

from core.analysis.set_drift import Separability
from core.plots.layers import BAND_COLOUR
from core.plots.probes import MAJORITY, PROBE


def auc_by_layer_figure(scored: dict[int, Separability]) -> go.Figure:
    layers = sorted(scored)
    aucs = [scored[layer].auc for layer in layers]
    low, high = zip(*(scored[layer].interval() for layer in layers))
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=layers + layers[::-1], y=[*high, *low[::-1]], fill="toself", fillcolor=BAND_COLOUR,
                                mode="lines", line={"width": 0}, hoverinfo="skip",
                                name="95% interval over the folds"))
    figure.add_trace(go.Scatter(x=layers, y=aucs, mode="lines+markers", name="domain classifier",
                                line={"color": PROBE}, hovertemplate="layer %{x}: AUC %{y:.3f}<extra></extra>"))
    figure.add_trace(go.Scatter(x=layers, y=[0.5] * len(layers), mode="lines", name="chance",
                                line={"color": MAJORITY, "dash": "dot"}, hoverinfo="skip"))
    figure.update_layout(height=360, margin={"t": 20, "b": 40}, legend={"orientation": "h", "y": -0.25},
                         xaxis={"title": "layer (0 = embeddings)", "tickmode": "array", "tickvals": layers},
                         yaxis={"title": "ROC AUC (which set?)", "range": [0.3, 1.02]})
    return figure
