"""The figure of a stored index checked against its model (core.analysis.index_check): each sampled row's cosine
between its stored vector and the model's fresh one, coloured by what the stored vector looks like."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core.analysis.index_check import AGREES, CUT, LENGTHS, OTHER, IndexCheck
from core.plots.probes import MAJORITY, PROBE

LOOKS = {AGREES: ("the model's own", PROBE), LENGTHS: ("the model's, another length", "#ff7f0e"),
         CUT: ("the model's, cut", "#9467bd"), OTHER: ("another model's", MAJORITY)}
POOLED = "#17becf"


def index_check_figure(check: IndexCheck) -> go.Figure | None:
    """A histogram of the rows' cosines, one trace a look; None where the stored vectors are wider than the model's
    (no cosine to draw)."""
    if check.cosines is None:
        return None
    figure = go.Figure()
    for look in dict.fromkeys(check.looks.tolist()):
        name, colour = LOOKS.get(look, (look.replace("pooling:", "the model's, pooled by "), POOLED))
        values = check.cosines[check.looks == look]
        figure.add_trace(go.Histogram(x=values, name=f"{name} ({len(values):,})", marker={"color": colour},
                                      xbins={"start": -1.005, "end": 1.005, "size": 0.01}, opacity=0.8))
    low = float(min(0.9, np.floor(check.cosines.min() * 10) / 10))
    figure.update_layout(height=300, margin={"t": 20, "b": 40}, barmode="stack",
                         legend={"orientation": "h", "y": -0.3},
                         xaxis={"title": "cosine: stored vector against the model's", "range": [low, 1.006]},
                         yaxis={"title": "sampled rows"})
    return figure
