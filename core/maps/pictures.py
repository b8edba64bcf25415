"""A map of pictures and the texts beside them, in the one space a model of images and texts gives both: each point
a picture (hovering shows its thumbnail) or a text, coloured by modality or by the pictures' labels, and a text query
that lights its nearest pictures, with its star and lines to them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from core.analysis.map.projection import ProjectionParams, place_queries
from core.analysis.map.projection_cache import cached_project
from core.analysis.search import top_k, unit_rows
from core.data.images import ImageCorpus
from core.data.rows import ROW_ID, text_row_ids
from core.data.thumbnails import thumbnail
from core.maps.build import HEIGHT, TOP, MapPoints, map_points
from core.maps.html import FileRows, file_rows
from core.plots.map import QueryMark
from core.plots.map_canvas import CanvasView, canvas_view, hover_line

MODALITY = "modality"
LABEL = "label"
PICTURE, TEXT = "picture", "text"
NO_LABEL = "(no label)"  # a picture outside every labelled subfolder, and every text, coloured by label


@dataclass(frozen=True)
class PictureMap:
    """The map's points (the pictures first, then the texts) and the pictures a query lit (None without one)."""

    points: MapPoints
    pictures: int
    lit: np.ndarray | None = None

    def is_picture(self, row: int) -> bool:
        return row < self.pictures

    def hover(self, row: int) -> str:
        return hover_line(row, self.points.texts[row], self.points.colouring)

    def canvas(self, *, height: int = HEIGHT) -> CanvasView:
        highlight = None
        if self.lit is not None:
            highlight = np.zeros(len(self.points.frame), dtype=bool)
            highlight[self.lit] = True
        return canvas_view(self.points.coords, self.points.colouring, label=self.points.title, highlight=highlight,
                           query=self.points.query, height=height)

    def thumbnail(self, corpus: ImageCorpus, row: int) -> bytes | None:
        """A picture's thumbnail (core.data.thumbnails), which hovering it shows; None for a text."""
        return thumbnail(corpus, row) if self.is_picture(row) else None

    def file_rows(self, corpus: ImageCorpus) -> FileRows:
        """The rows of the map's HTML file, each picture with its thumbnail."""
        rows = file_rows(self.points.texts, self.points.colouring, self.points.row_ids)
        return replace(rows, thumbnails=[self.thumbnail(corpus, row) for row in range(len(self.points.frame))])


def picture_frame(corpus: ImageCorpus, texts: Sequence[str]) -> pd.DataFrame:
    """One row a picture (its row id, its path as its text, its label) and then one a text."""
    return pd.DataFrame({
        ROW_ID: [*corpus.row_ids, *text_row_ids(texts)],
        "text": [*corpus.paths, *texts],
        MODALITY: [PICTURE] * len(corpus) + [TEXT] * len(texts),
        LABEL: [label or NO_LABEL for label in corpus.labels] + [NO_LABEL] * len(texts),
    })


def picture_map(corpus: ImageCorpus, images: np.ndarray, texts: Sequence[str], text_vectors: np.ndarray,
                params: ProjectionParams, *, colour_by: str = MODALITY, query: tuple[str, np.ndarray] | None = None,
                top: int = TOP, model_id: str) -> PictureMap:
    """The pictures and texts mapped from their unit vectors by `params`' projection (kept on disk for next time;
    t-SNE's perplexity lowered to a third of the other points where the map is smaller than it needs), coloured by
    `colour_by` (MODALITY or LABEL); `query` (a text and its vector) lights its `top` nearest pictures by the cosine
    in the full space, and its star sits where the projection places it."""
    if colour_by not in (MODALITY, LABEL):
        raise ValueError(f"A map of pictures is coloured by {MODALITY!r} or {LABEL!r}, not {colour_by!r}.")
    space = unit_rows(np.vstack([images, *([text_vectors] if len(texts) else [])]).astype(np.float32))
    params = replace(params, perplexity=min(params.perplexity, max(1.0, (len(space) - 1) / 3)))
    projection = cached_project(space, method=params.method, perplexity=params.perplexity,
                                neighbours=params.neighbours, min_dist=params.min_dist, seed=params.seed)
    frame = picture_frame(corpus, texts)
    mark, lit = None, None
    if query is not None:
        vector = unit_rows(query[1][None])
        lit = top_k(vector, space[:len(corpus)], min(top, len(corpus))).indices[0]
        x, y = place_queries(projection, space, vector, k=min(top, len(space)))[0]  # as the Map page places its star
        mark = QueryMark(query[0], (float(x), float(y)), lit.tolist())
    title = f"{params.method} of {len(corpus):,} pictures and {len(texts):,} texts, {model_id}"
    points = map_points(frame, space, projection, title=title, label=colour_by, seed=params.seed, query=mark)
    return PictureMap(points, len(corpus), lit)
