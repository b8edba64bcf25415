"""Figures of images and texts in one space: the heatmap of every image and text against every other with the
images' thumbnails on the axes, the two modalities on a plane (as embedded, and with the gap closed), zero-shot's
confusion, and a match's patches over the image."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from sklearn.decomposition import PCA

from core.analysis.image_attribution import PatchAttribution
from core.analysis.image_space import ImageTextSpace
from core.analysis.modality_gap import closed
from core.analysis.search import unit_rows
from core.plots.labels import plain_text

MODALITY_COLOURS = {"image": "#e8590c", "text": "#1c7ed6"}
CELL = 34  # pixels a row or column of the heatmap takes
SHORT = 28  # characters of a text shown on an axis


def _short(text: str) -> str:
    text = plain_text(text)
    return text if len(text) <= SHORT else text[:SHORT - 1] + "…"


def space_heatmap(space: ImageTextSpace, names: Sequence[str], texts: Sequence[str],
                  thumbnails: Sequence[str]) -> go.Figure:
    """Every image and text against every other by the cosine, images first: the blocks within each modality and the
    block between them show the gap. `thumbnails` are the images' data URIs, drawn beside their rows and columns."""
    n, total = len(names), len(names) + len(texts)
    labels = [_short(name) for name in names] + [f"“{_short(text)}”" for text in texts]
    full = [f"picture: {name}" for name in names] + [f"text: {plain_text(text)}" for text in texts]
    figure = go.Figure(go.Heatmap(
        z=space.matrix, x=list(range(total)), y=list(range(total)), colorscale="Viridis",
        colorbar=dict(title="cosine"), customdata=[[[full[i], full[j]] for j in range(total)] for i in range(total)],
        hovertemplate="%{customdata[0]}<br>%{customdata[1]}<br>cosine %{z:.3f}<extra></extra>"))
    edge = n - 0.5  # the line between the pictures and the texts, both ways
    figure.add_shape(type="line", x0=edge, x1=edge, y0=-0.5, y1=total - 0.5, line=dict(color="white", width=3))
    figure.add_shape(type="line", y0=edge, y1=edge, x0=-0.5, x1=total - 0.5, line=dict(color="white", width=3))
    for i, uri in enumerate(thumbnails):  # each picture above its column, in a row of its own
        figure.add_layout_image(source=uri, xref="x", yref="y", x=i, y=-0.55, sizex=0.95, sizey=0.95,
                                xanchor="center", yanchor="bottom", sizing="contain", layer="above")
    figure.update_layout(
        height=min(900, max(480, 22 * total + 230)), margin=dict(l=10, r=10, t=10, b=10),
        xaxis=dict(tickvals=list(range(total)), ticktext=labels, tickangle=-60, range=[-0.5, total - 0.5],
                   constrain="domain", showgrid=False),
        yaxis=dict(tickvals=list(range(total)), ticktext=labels, range=[total - 0.5, -1.6 if thumbnails else -0.5],
                   scaleanchor="x", constrain="domain", showgrid=False))
    return figure


def _plane(images: np.ndarray, texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    both = unit_rows(np.vstack([images, texts]).astype(np.float32))
    coords = PCA(n_components=2, random_state=0).fit_transform(both) if len(both) > 2 else np.zeros((len(both), 2))
    return coords[:len(images)], coords[len(images):]


def gap_figure(space: ImageTextSpace, names: Sequence[str], texts: Sequence[str]) -> go.Figure:
    """The unit vectors on the plane of their two main directions (PCA), as embedded and with each modality centred on
    its own centroid; each modality's centroid a large mark, the gap the line between them."""
    figure = make_subplots(rows=1, cols=2, subplot_titles=("As embedded", "Gap closed (each modality centred)"))
    for col, (images, words) in enumerate(((space.images, space.texts),
                                           (closed(space.images), closed(space.texts))), start=1):
        a, b = _plane(images, words)
        for modality, points, hover in (("image", a, list(names)), ("text", b, [plain_text(t) for t in texts])):
            colour = MODALITY_COLOURS[modality]
            figure.add_scatter(x=points[:, 0], y=points[:, 1], mode="markers", name=f"{modality}s",
                               marker=dict(color=colour, size=9, symbol="square" if modality == "image" else "circle"),
                               text=hover, hovertemplate="%{text}<extra>" + modality + "</extra>",
                               legendgroup=modality, showlegend=col == 1, row=1, col=col)
        centres = np.vstack([a.mean(0), b.mean(0)])
        figure.add_scatter(x=centres[:, 0], y=centres[:, 1], mode="lines+markers", name="centroids and the gap",
                           line=dict(color="black", dash="dot"), marker=dict(size=16, color="black", symbol="x"),
                           legendgroup="gap", showlegend=col == 1, hoverinfo="skip", row=1, col=col)
    figure.update_layout(height=460, margin=dict(l=10, r=10, t=70, b=10),
                         legend=dict(orientation="h", y=1.1, yanchor="bottom"))
    figure.update_xaxes(title="first direction")
    figure.update_yaxes(title="second direction")
    return figure


def confusion_figure(confusion: np.ndarray, classes: Sequence[str]) -> go.Figure:
    labels = [plain_text(name) for name in classes]
    figure = go.Figure(go.Heatmap(z=confusion, x=labels, y=labels, colorscale="Blues", texttemplate="%{z}",
                                  colorbar=dict(title="images"),
                                  hovertemplate="true: %{y}<br>predicted: %{x}<br>%{z} images<extra></extra>"))
    figure.update_layout(height=max(300, 120 + 28 * len(labels)), margin=dict(l=10, r=10, t=30, b=10),
                         xaxis=dict(title="predicted class", tickangle=-45), yaxis=dict(title="true class",
                                                                                        autorange="reversed"))
    return figure


def patch_figure(found: PatchAttribution) -> go.Figure:
    """The image as the model saw it, each patch tinted by its attribution: red raised the cosine with the text,
    blue lowered it."""
    height, width = found.seen.shape[:2]
    rows, cols = found.patches.shape
    limit = float(np.abs(found.patches).max()) or 1.0
    figure = go.Figure(go.Image(z=found.seen, hoverinfo="skip"))
    figure.add_heatmap(z=found.patches, x0=(width / cols - 1) / 2, dx=width / cols, y0=(height / rows - 1) / 2,
                       dy=height / rows, colorscale="RdBu_r", zmin=-limit, zmax=limit, opacity=0.55,
                       colorbar=dict(title="attribution"),
                       hovertemplate="patch row %{y:.0f}, column %{x:.0f}<br>attribution %{z:.4f}<extra></extra>")
    figure.update_layout(height=440, margin=dict(l=10, r=10, t=30, b=10),
                         xaxis=dict(visible=False), yaxis=dict(visible=False))
    return figure
