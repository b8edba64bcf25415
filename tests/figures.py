"""The one Plotly-figure decoder of the tests: a chart drawn under AppTest, back as a plotly Figure."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.graph_objects as go


def decoded(value):
    """Plotly's JSON with its typed arrays ({"bdata", "dtype", "shape"}) turned back into numpy arrays."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return array.reshape([int(n) for n in str(value.get("shape", len(array))).split(",")])
    if isinstance(value, dict):
        return {key: decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decoded(item) for item in value]
    return value


def specs(at) -> list[dict]:
    """Every chart of the page as its decoded Plotly JSON (data and layout)."""
    return [decoded(json.loads(chart.proto.spec)) for chart in at.get("plotly_chart")]


def figures(at) -> list[go.Figure]:
    return [go.Figure(spec) for spec in specs(at)]


def figure(at, key: str) -> go.Figure:
    """The chart drawn with widget key `key`."""
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(f"-{key}"):
            return go.Figure(decoded(json.loads(chart.proto.spec)))
    raise AssertionError(f"no chart with key {key!r} on the page")
