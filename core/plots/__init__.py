"""Plotly figures built from plain arrays (tested without a browser); one module per subject."""
