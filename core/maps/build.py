"""One way a table of rows becomes a map: a table (`row_id`, `text` and label columns) and its space (core.maps.space)
in; each row's point, its colour (a label column, else k-means clusters of the space), the query's star with its
nearest texts, and the view the canvas draws, out. The Map page, MapWidget and `python -m core project` all draw
what this gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from core.analysis.concepts import direction_title, label_direction
from core.analysis.map.labels import MapLabel, zoom_labels
from core.analysis.map.projection import PlacedQuery, Projection, ProjectionParams, kmeans_clusters, place_query
from core.analysis.map.projection_cache import cached_project
from core.data.rows import ROW_ID, with_row_ids
from core.kinds.titles import configuration_title
from core.maps.checks import check_projectable
from core.maps.space import MapSpace, model_space, query_point
from core.models.loading import LoadedModel
from core.plots.map import Colouring, QueryMark, categories, fits_legend, numbers
from core.plots.map_canvas import CanvasView, canvas_view
from core.settings import Settings

CLUSTERS = 8  # k-means clusters a map is coloured by without labels: the Map page's default
TOP = 5  # the query's nearest texts, drawn as lines from its star: the Map page's default
HEIGHT = 600  # pixels

Clusterer = Callable[[np.ndarray, int, int], np.ndarray]  # (vectors, k, seed) -> each row's cluster


def _kmeans(vectors: np.ndarray, k: int, seed: int) -> np.ndarray:
    return kmeans_clusters(vectors, k=k, seed=seed)


@dataclass(frozen=True)
class Coloured:
    """A map's colouring, the k-means clusters it shows (None: it shows labels) and, where labels were asked for but
    could not be shown, why."""

    colouring: Colouring
    clusters: np.ndarray | None
    note: str = ""


def colour(labels: Sequence[object] | None, vectors: np.ndarray, *, name: str = "label", k: int = CLUSTERS,
           seed: int = 0, clusters: Clusterer = _kmeans) -> Coloured:
    """By `labels` where a legend can tell them apart, else by `k` k-means clusters of `vectors` (the space, or the
    positions where there is none), with a note saying so where labels were given."""
    named = None if labels is None else [str(label) for label in labels]
    if named is not None and fits_legend(named):
        return Coloured(categories(named, title=name), None)
    k = min(k, len(vectors))
    found = clusters(vectors, k, seed)
    note = "" if named is None else (f"The column `{name.replace('`', '')}` has {len(set(named)):,} distinct values, "
                                     f"too many to tell apart by colour; the map is coloured by {k} k-means clusters "
                                     "instead.")
    return Coloured(categories(found.tolist(), title="cluster"), found, note)


def directed(labels: Sequence[object] | None, vectors: np.ndarray, texts: Sequence[str], first: str,
             second: str | None = None, *, seed: int = 0) -> Coloured:
    """Each point's score along the direction from the texts labelled `second` (None: every other text) to those
    labelled `first`, as the Map page colours by "a direction between two labels"; ValueError in one sentence."""
    if labels is None:
        raise ValueError("A direction runs from one label to another: give the texts' labels too.")
    found = label_direction(vectors, [str(label) for label in labels], texts, first, second, seed=seed)
    return Coloured(numbers(found.scores, title=direction_title(first, second)), None)


def query_mark(query: str, vector: np.ndarray, space: np.ndarray, projection: Projection, texts: list[str], *,
               top: int = TOP) -> tuple[QueryMark, PlacedQuery]:
    """The query's star (`vector`: its place in the map's space) with lines to its `top` nearest texts there."""
    placed = place_query(projection, space, vector[None], texts, k=min(top, len(texts)))
    return QueryMark(query, placed.position, placed.neighbours["#"].tolist()), placed


@dataclass(frozen=True)
class MapPoints:
    """A map: its rows (`row_id`, `text` and label columns), their vectors in the map's space and their 2-D positions,
    the column its colours show (None: k-means clusters of the space), the query's star, the map's accessible name and
    its seed; with a `direction` (two of the column's values, the second None for every other text), the colours are
    each point's score along it. The colouring is worked out when it is first asked for (a table of positions needs
    none)."""

    frame: pd.DataFrame
    space: np.ndarray
    coords: np.ndarray
    label: str | None
    query: QueryMark | None
    title: str
    seed: int = 0
    k: int = CLUSTERS
    fitted_on: int | None = None  # where the projection was fitted on a seeded sample and placed the rest: its size
    direction: tuple[str, str | None] | None = None

    @cached_property  # a hover reads one: a column's tolist took 0.08 s at 1,000,000 points
    def texts(self) -> list[str]:
        return self.frame["text"].tolist()

    @cached_property
    def row_ids(self) -> list[str]:
        return self.frame[ROW_ID].tolist()

    @cached_property
    def coloured(self) -> Coloured:
        labels = None if self.label is None else self.frame[self.label].tolist()
        if self.direction is not None:
            return directed(labels, self.space, self.texts, *self.direction, seed=self.seed)
        return colour(labels, self.space, name=self.label or "label", k=self.k, seed=self.seed)

    @property
    def colouring(self) -> Colouring:
        return self.coloured.colouring

    @property
    def clusters(self) -> np.ndarray | None:
        """The k-means clusters the colours show, which name the coarsest zoom labels (None: it shows labels)."""
        return self.coloured.clusters

    @cached_property
    def labels(self) -> np.ndarray:
        """What each point is labelled: its label (where the colours show them, or a legend could not), else its
        cluster."""
        if self.label is not None:
            return self.frame[self.label].astype(str).to_numpy(dtype=object)
        return np.asarray(self.colouring.values, dtype=object)

    def zoom_labels(self) -> list[MapLabel]:
        return zoom_labels(self.coords, self.texts, self.clusters, seed=self.seed)

    def table(self, rows: Sequence[int] | np.ndarray | None = None) -> pd.DataFrame:
        """The points (or the `rows` among them) as rows: `row_id`, `text`, the label, `x` and `y`."""
        picked = np.arange(len(self.frame)) if rows is None else np.asarray(rows, dtype=np.int64)
        return pd.DataFrame({ROW_ID: self.frame[ROW_ID].to_numpy()[picked],
                             "text": self.frame["text"].to_numpy()[picked], "label": self.labels[picked],
                             "x": self.coords[picked, 0], "y": self.coords[picked, 1]})

    def canvas(self, *, height: int = HEIGHT) -> CanvasView:
        return canvas_view(self.coords, self.colouring, label=self.title, query=self.query, height=height)


def map_points(frame: pd.DataFrame, space: np.ndarray, coords: np.ndarray | Projection, *, title: str,
               label: str | None = None, k: int = CLUSTERS, seed: int = 0, query: QueryMark | None = None) -> MapPoints:
    """The map of `frame`'s rows (row ids added where it has none) at `coords` (or a projection's), coloured by its
    column `label` (else by k-means clusters of `space`)."""
    fitted = coords.params.get("fitted_on") if isinstance(coords, Projection) else None
    positions = coords.coords if isinstance(coords, Projection) else coords
    return MapPoints(with_row_ids(frame.reset_index(drop=True)), np.asarray(space), np.asarray(positions, np.float64),
                     label, query, title, seed, k, None if fitted is None else int(fitted))


def build_map(frame: pd.DataFrame, space: MapSpace, params: ProjectionParams, *, title: str,
              label: str | None = None, query: tuple[str, np.ndarray] | None = None, k: int = CLUSTERS,
              top: int = TOP) -> MapPoints:
    """`frame`'s rows mapped from `space` by `params`' projection (kept on disk for next time), coloured by `label`
    (else k-means clusters), with `query` (its text and its vector in the space) as a star."""
    projection = cached_project(space.vectors, method=params.method, perplexity=params.perplexity,
                                neighbours=params.neighbours, min_dist=params.min_dist, seed=params.seed)
    texts = frame["text"].tolist()
    mark = None if query is None else query_mark(query[0], query[1], space.vectors, projection, texts, top=top)[0]
    return map_points(frame, space.vectors, projection, title=title, label=label, k=k, seed=params.seed, query=mark)


def map_title(method: str, n: int, configuration: str) -> str:
    """A model's map's title and accessible name: "PCA of 300 texts, model · mean pooling · layer 6 (last)"."""
    return f"{method} of {n:,} texts, {configuration}"


def model_map(frame: pd.DataFrame, model: LoadedModel, settings: Settings, params: ProjectionParams, *,
              label: str | None = None, query: str | None = None, k: int = CLUSTERS,
              top: int = TOP) -> MapPoints:
    """`frame`'s texts embedded by the model as documents (each distinct text once; a sparse model's vectors reduced,
    a late-interaction model's texts each the mean of its token vectors: core.kinds) and mapped by `build_map`, with
    `query` (if any) embedded as a query."""
    space = model_space(model, frame["text"].tolist(), settings)
    check_projectable(space.vectors)
    asked = query.strip() if query else ""
    placed = (asked, query_point(model, asked, settings, space)) if asked else None
    title = map_title(params.method, len(frame), configuration_title(settings, model))
    return build_map(frame, space, params, title=title, label=label, query=placed, k=k, top=top)
