"""The figures of two sets compared (core.evaluation.set_drift): the domain classifier's ROC AUC at each layer with
its 95% interval over the folds, beside chance (0.5), drawn as the probes' accuracy is drawn; and how far each new
text lies from its nearest reference text, against how far each reference text lies from its nearest other one."""

from __future__ import annotations

import plotly.graph_objects as go

from core.analysis.set_drift import Nearest, Separability
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


def nearest_figure(nearest: Nearest) -> go.Figure:
    """Two histograms, each a share of its set: a new text's cosine distance to its nearest reference text, and a
    reference text's to its nearest other reference text (how close the reference keeps to itself)."""
    figure = go.Figure()
    for values, name, colour in ((nearest.reference_to_reference, "a reference text → its nearest other reference text",
                                  MAJORITY),
                                 (nearest.current_to_reference, "a new text → its nearest reference text", PROBE)):
        figure.add_trace(go.Histogram(x=values, name=name, histnorm="percent", opacity=0.6, nbinsx=40,
                                      marker={"color": colour},
                                      hovertemplate="distance %{x}: %{y:.1f}% of the texts<extra></extra>"))
    figure.update_layout(barmode="overlay", height=300, margin={"t": 20, "b": 40},
                         legend={"orientation": "h", "y": -0.3},
                         xaxis={"title": "cosine distance to the nearest reference text"},
                         yaxis={"title": "% of the set's texts"})
    return figure
