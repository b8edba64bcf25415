"""A dashed vertical line and its label as layout entries, given to a figure's constructor: Plotly's `add_vline` and
`update_layout` match every key path against the layout on each call, several milliseconds a figure, which a page
redrawing on every rerun pays again for each of its figures."""

from __future__ import annotations

from typing import Any


def vline(x: float, *, colour: str | None = None) -> dict[str, Any]:
    """A dashed line at `x` across the plot's height (`add_vline(x, line_dash="dash")`)."""
    return dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain",
                line=dict(dash="dash", **({"color": colour} if colour else {})))


def vline_label(x: float, text: str, *, xanchor: str = "left") -> dict[str, Any]:
    """`text` above a line at `x`, to its right (add_vline's annotation at "top right"; "center": at "top")."""
    return dict(x=x, xref="x", y=1, yref="y domain", text=text, showarrow=False, xanchor=xanchor, yanchor="bottom")
