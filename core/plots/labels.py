"""User text inside Plotly figures: escaped (Plotly reads a subset of HTML in labels, so a typed <b> must stay
text), shortened for axis labels and wrapped for hover boxes. The one place figures turn text into labels."""

from __future__ import annotations

import html
import textwrap


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def plain_text(text: str) -> str:
    """User text as Plotly shows it: its pseudo-HTML tags escaped, so it stays text."""
    return html.escape(text, quote=False)


def label(text: str, limit: int) -> str:
    """A short, escaped label."""
    return plain_text(shorten(text, limit))


def hover_text(text: str, *, limit: int, width: int = 70) -> str:
    """The text cut at `limit` characters (saying how much was left out), escaped and wrapped into lines."""
    cut = text if len(text) <= limit else text[:limit].rstrip() + f"… (+{len(text) - limit:,} characters)"
    return "<br>".join(plain_text(line) for line in textwrap.wrap(cut, width, break_long_words=True) or [""])
