"""The map in a notebook: `MapWidget`, an anywidget over the Map page's canvas. Its JavaScript is built from the same
source as the Streamlit component's (ui/components/map_canvas/frontend/, src/widget.js) into
frontend/dist/map_widget.js and committed, so using it needs no Node; it draws the view core.plots.map_canvas builds
for the Map page (positions, colour codes, highlight bits, palette, legend, zoom labels, the query's star).

The contract with the browser is MapWidget's synced traits, each declared once below with its type; their JavaScript
side is frontend/src/contract.js (WidgetState). The binary columns travel as binary buffers (a column is its content
key followed by its bytes, as in Streamlit), never as JSON; the selection comes back as uint32 row numbers, and a
hover asks Python for that one row's text by a custom message ({"hover": row}, answered {"hover": {row, text}}), so
a million texts never go to the browser. The zoom labels follow the first frame: once its points are drawn the browser
asks for them ({"labels": true}) and they come in the view, computed in a thread of their own (k-means at three
levels and keywords took seconds at 1,000,000 points, which neither the points nor a hover wait for).

Open one with `Explorer.map(texts)` (embedded and projected as the Map page does), `MapWidget.from_vectors(vectors,
texts)` or `MapWidget.from_frame(frame)` (coordinates you have). Needs the notebook extra: `make notebook-extra`."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
import traitlets

from core.analysis.late.points import document_points
from core.analysis.map.clusters import matching, query_in_space
from core.analysis.map.labels import MapLabel, zoom_labels
from core.analysis.map.methods import METHODS, Method
from core.analysis.map.projection import MAX_POINTS, check_rows, kmeans_clusters, place_query
from core.analysis.map.projection_cache import cached_project
from core.analysis.map.sparse_space import reduce_sparse
from core.encoding.prompts import with_role
from core.kinds.titles import configuration_title
from core.plots.map import Colouring, QueryMark, categories, fits_legend
from core.plots.map_canvas import (
    blob_key,
    canvas_labels,
    canvas_points,
    canvas_view,
    highlight_blob,
    highlight_size,
    hover_line,
)

if TYPE_CHECKING:
    from core.notebook.explorer import Explorer

NO_EXTRA = ("The map widget needs the notebook extra (anywidget): run `make notebook-extra`, or "
            "`pip install -r requirements-notebook.txt`.")
try:
    import anywidget
except ImportError as err:
    raise ImportError(NO_EXTRA) from err

FRONTEND = Path(__file__).resolve().parents[2] / "ui" / "components" / "map_canvas" / "frontend"
BUNDLE = FRONTEND / "dist" / "map_widget.js"
NOT_BUILT = ("The map widget's JavaScript (ui/components/map_canvas/frontend/dist/map_widget.js) is missing: restore "
             "it with `git checkout -- ui/components/map_canvas/frontend/dist`, or rebuild it with `make canvas` "
             "(Node 20).")
HEIGHT = 600  # pixels of the map in a notebook cell
CLUSTERS = 8  # k-means clusters a map is coloured by without labels: the Map page's default
TOP = 5  # the query's nearest texts, drawn as lines from its star: the Map page's default
HOVER = "hover"  # contract.js's HOVER: the custom message that asks for a row's text, and its answer
LABELS = "labels"  # contract.js's LABELS: the custom message that asks for the zoom labels


def _rows_to_json(rows: np.ndarray, widget: Any) -> bytes:
    return np.asarray(rows, dtype="<u4").tobytes()


def _rows_from_json(data: Any, widget: Any) -> np.ndarray:
    return np.frombuffer(bytes(data or b""), dtype="<u4")


class Rows(traitlets.TraitType):
    """Row numbers: a read-only uint32 array, sorted, each once; uint32 bytes on the wire."""

    info_text = "row numbers (an array of non-negative integers)"
    default_value = np.zeros(0, np.uint32)

    def validate(self, obj: Any, value: Any) -> np.ndarray:
        rows = np.asarray(value)
        if rows.ndim != 1 or (rows.size and (rows.dtype.kind not in "iu" or rows.min() < 0)):
            self.error(obj, value)
        unique = np.unique(rows).astype(np.uint32)
        unique.flags.writeable = False
        return unique


ROWS = {"to_json": _rows_to_json, "from_json": _rows_from_json}


@dataclass(frozen=True)
class MapPoints:
    """What a map draws and answers with: its texts, 2-D positions, the label of each point (the user's, or its
    cluster), the colouring, the clusters its coarsest zoom labels name (None: k-means of the map's positions), the
    query's star, and the map's accessible name."""

    texts: list[str]
    coords: np.ndarray
    labels: np.ndarray
    colouring: Colouring
    clusters: np.ndarray | None
    query: QueryMark | None
    title: str
    seed: int

    def zoom_labels(self) -> list[MapLabel]:
        return zoom_labels(self.coords, self.texts, self.clusters, seed=self.seed)


class MapWidget(anywidget.AnyWidget):
    """The Map page's canvas in a notebook cell: hover a point for its text, pan and zoom (finer cluster labels show
    as you zoom in), click a point or draw a Box or Lasso to select, hide categories in the legend.

    `selection`: the selected rows as a DataFrame (index `row`; columns text, label, x, y), empty at first; assign
    row numbers (or a boolean mask, or a DataFrame of rows) to select from Python. `highlight(find)`: the Map page's
    "Highlight texts containing". To react to a selection made in the browser, observe the `selected` trait:
    `widget.observe(callback, names="selected")`."""

    _esm = BUNDLE

    view = traitlets.Dict().tag(sync=True)  # CanvasViewData (core/plots/map_canvas.py)
    positions = traitlets.Bytes().tag(sync=True)  # the column the view's positions names
    codes = traitlets.Bytes().tag(sync=True)  # the column the view's codes names
    highlight_bits = traitlets.Bytes(b"").tag(sync=True)  # the column the view's highlight names; b"" for none
    # the selected rows, set by the browser or by Python; a change from the browser is not echoed back to it (ipywidgets
    # would send the rows straight back: 4 MB for a million)
    selected = Rows().tag(sync=True, echo_update=False, **ROWS)
    answered = traitlets.Int(0).tag(sync=True)  # counts Python's answers to selections: the browser then draws them

    def __init__(self, points: MapPoints, *, height: int = HEIGHT) -> None:
        if not BUNDLE.exists():
            raise FileNotFoundError(NOT_BUILT)
        canvas = canvas_view(points.coords, points.colouring, label=points.title, query=points.query, height=height)
        super().__init__(view=dict(canvas.view), positions=canvas.blobs["positions"], codes=canvas.blobs["codes"])
        self._points = points
        self._labelling: threading.Thread | None = None
        self._view_lock = threading.Lock()  # the labels' thread and highlight() both change the view
        self.on_msg(self._message)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, x: str = "x", y: str = "y", text: str = "text",
                   label: str | None = None, title: str | None = None, height: int = HEIGHT) -> MapWidget:
        """A map of coordinates you have: `frame`'s columns `x` and `y` (finite numbers) and `text`, coloured by the
        column `label` (else by k-means clusters of the positions)."""
        for column in (x, y, text, *([label] if label is not None else [])):
            if column not in frame.columns:
                raise ValueError(f"The DataFrame has no column {column!r}; name its columns with x=, y=, text= and "
                                 "label=.")
        coords = np.column_stack([_numbers(frame[x], x), _numbers(frame[y], y)])
        _check_coords(coords)
        texts = _texts(frame[text])
        labels = None if label is None else frame[label].tolist()
        name = title or f"{len(texts):,} points of a DataFrame"
        return cls(_map_points(coords, coords, texts, labels, name, seed=0), height=height)

    @classmethod
    def from_vectors(cls, vectors: np.ndarray, texts: Sequence[str], *, labels: Sequence[object] | None = None,
                     method: str = "PCA", seed: int = 0, title: str | None = None,
                     height: int = HEIGHT) -> MapWidget:
        """A map of vectors you have, one per text, projected as the Map page projects them (`method` "PCA",
        "t-SNE" or "UMAP"; stored for next time) and coloured by `labels` (else by k-means clusters of the vectors)."""
        listed = _texts(texts)
        chosen = _method(method)
        vectors = np.asarray(vectors)
        if len(vectors) != len(listed):
            raise ValueError(f"There are {len(vectors):,} vectors and {len(listed):,} texts: give one text per vector.")
        _check_projectable(vectors)
        coords = cached_project(vectors, method=chosen, seed=seed).coords
        name = title or f"{method} of {len(listed):,} vectors"
        return cls(_map_points(vectors, coords, listed, labels, name, seed=seed), height=height)

    @property
    def selection(self) -> pd.DataFrame:
        """The selected rows: index `row` (the text's number), columns text, label, x, y (the map's position)."""
        rows = np.asarray(self.selected, dtype=np.int64)
        points = self._points
        return pd.DataFrame({"text": [points.texts[i] for i in rows], "label": points.labels[rows],
                             "x": points.coords[rows, 0], "y": points.coords[rows, 1]},
                            index=pd.Index(rows, name="row"))

    @selection.setter
    def selection(self, rows: Iterable[int] | np.ndarray | pd.DataFrame | pd.Series) -> None:
        self.selected = self._rows(rows)

    def highlight(self, find: str | Sequence[bool] | Sequence[int] | np.ndarray | None = None, *,
                  regex: bool = False) -> int:
        """Highlight the texts containing `find` (case-insensitive; a regular expression with `regex=True`), as the
        Map page's "Highlight texts containing" does, or the rows a boolean mask or row numbers name; the other points
        go grey. None or "" clears it. Returns how many points are highlighted."""
        n = len(self._points.texts)
        if find is None or (isinstance(find, str) and not find):
            mask = None
        elif isinstance(find, str):
            mask = matching(self._points.texts, find, regex=regex)
        else:
            mask = np.zeros(n, dtype=bool)
            mask[self._rows(find)] = True
        bits = b"" if mask is None else highlight_blob(mask)
        count = n if mask is None else int(mask.sum())
        change = {"highlight": blob_key(bits) if bits else None, "highlighted": count,
                  "highlightSize": highlight_size(n, count)}
        with self._view_lock, self.hold_sync():
            self.highlight_bits = bits
            self.view = {**self.view, **change}
        return count

    def _rows(self, rows: Iterable[int] | np.ndarray | pd.DataFrame | pd.Series) -> np.ndarray:
        """Row numbers from a list or array of them, a boolean mask (one value per point), or a DataFrame or Series
        of rows (their index; a boolean Series is a mask)."""
        n = len(self._points.texts)
        if isinstance(rows, pd.Series) and rows.dtype == bool:
            found = rows.to_numpy()
        elif isinstance(rows, pd.DataFrame | pd.Series):
            found = rows.index.to_numpy()
        else:
            found = np.asarray(rows if isinstance(rows, np.ndarray) else list(rows))
        if found.dtype == bool:
            if found.shape != (n,):
                raise ValueError(f"A mask of {found.size:,} values does not fit the map's {n:,} points: give one "
                                 "value per point.")
            return np.flatnonzero(found)
        if found.size and (found.dtype.kind not in "iu" or found.min() < 0 or found.max() >= n):
            wrong = next(r for r in found.tolist() if not (isinstance(r, int) and 0 <= r < n))
            raise ValueError(f"{wrong!r} is not a row of the map: its rows are the numbers 0 to {n - 1:,}.")
        return found.astype(np.int64)

    @traitlets.observe("selected")
    def _selected(self, change: dict[str, Any]) -> None:
        self.answered += 1

    def _label(self) -> None:
        """Add the zoom labels to the view, once, in a thread of their own: the browser asks for them when it has
        drawn the points, and a hover or a selection is answered while they are computed (seconds at 1,000,000
        points: a hover waited 1.6 s for them)."""
        if self._labelling is None:
            self._labelling = threading.Thread(target=self._add_labels, name="map zoom labels", daemon=True)
            self._labelling.start()

    def _add_labels(self) -> None:
        points = self._points
        labels = canvas_labels(points.zoom_labels(), canvas_points(points.coords))
        with self._view_lock:
            self.view = {**self.view, "labels": labels}

    def _message(self, widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        row = content.get(HOVER)
        if isinstance(row, int) and 0 <= row < len(self._points.texts):
            points = self._points
            self.send({HOVER: {"row": row, "text": hover_line(row, points.texts[row], points.colouring)}})
        if content.get(LABELS) is True:
            self._label()


def explorer_map(explorer: Explorer, texts: Sequence[str], *, labels: Sequence[object] | None = None,
                 method: str = "PCA", query: str | None = None, seed: int = 0,
                 height: int = HEIGHT) -> MapWidget:
    """`Explorer.map`: the texts embedded as documents by the explorer's configuration and mapped as the Map page maps
    them: a sparse model's vectors reduced by TruncatedSVD first, a late-interaction model's text as the mean of its
    token vectors; the query (if any) as a star with lines to its TOP nearest texts."""
    listed = _texts(texts)
    chosen = _method(method)
    if labels is not None and len(labels) != len(listed):
        raise ValueError(f"There are {len(labels):,} labels and {len(listed):,} texts: give one label per text.")
    model, kind = explorer.model, explorer.kind
    reduction = None
    if kind.token_vectors:
        space = document_points(model, listed)
    else:
        space = kind.cached(model, listed, with_role(explorer.settings, model.pipeline, "document"))
        if sp.issparse(space):
            reduction = reduce_sparse(space)
            space = reduction.vectors
    _check_projectable(space)
    projection = cached_project(space, method=chosen, seed=seed)
    mark = None
    if query is not None and query.strip():
        vector = query_in_space(model, query.strip(), with_role(explorer.settings, model.pipeline, "query"), None,
                                reduction)
        placed = place_query(projection, space, vector[None], listed, k=min(TOP, len(listed)))
        mark = QueryMark(query.strip(), placed.position, placed.neighbours["#"].tolist())
    title = f"{method} of {len(listed):,} texts, {configuration_title(explorer.settings, model)}"
    return MapWidget(_map_points(space, projection.coords, listed, labels, title, seed=seed, query=mark),
                     height=height)


def _map_points(space: np.ndarray, coords: np.ndarray, texts: list[str], labels: Sequence[object] | None,
                title: str, *, seed: int, query: QueryMark | None = None) -> MapPoints:
    """Coloured as the Map page colours: by `labels` when a legend can hold them, else by k-means clusters of `space`
    (the vectors, or the positions when there are none); labelled at each zoom level by clusters."""
    if labels is not None and len(labels) != len(texts):
        raise ValueError(f"There are {len(labels):,} labels and {len(texts):,} texts: give one label per text.")
    named = None if labels is None else [str(label) for label in labels]
    clusters = None
    if named is not None and fits_legend(named):
        colouring = categories(named, title="label")
    else:
        k = min(CLUSTERS, len(texts))
        if named is not None:
            warnings.warn(f"The labels have {len(set(named)):,} distinct values, too many to tell apart by colour; "
                          f"the map is coloured by {k} k-means clusters instead.", stacklevel=3)
        clusters = kmeans_clusters(space, k=k, seed=seed)
        colouring = categories(clusters.tolist(), title="cluster")
    shown = np.asarray(named if named is not None else colouring.values, dtype=object)
    return MapPoints(texts, np.asarray(coords, dtype=np.float64), shown, colouring, clusters, query, title, seed)


def _texts(texts: Iterable[object]) -> list[str]:
    # a Series's tolist: iterating a column of Arrow strings took 0.6 s at 1,000,000, tolist 0.08 s
    given = [texts] if isinstance(texts, str) else texts.tolist() if isinstance(texts, pd.Series) else list(texts)
    listed = [text for text in given if isinstance(text, str)]
    if len(listed) != len(given):
        raise TypeError("Give texts as strings, one per point.")
    if not listed:
        raise ValueError("There are no texts: a map needs at least one point.")
    if len(listed) > MAX_POINTS:
        raise ValueError(f"A map draws at most {MAX_POINTS:,} points, not {len(listed):,}; take a sample.")
    return listed


def _numbers(column: pd.Series, name: str) -> np.ndarray:
    try:
        return np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"The column {name!r} holds values that are not numbers; give coordinates as numbers.") \
            from None


def _check_coords(coords: np.ndarray) -> None:
    bad = np.flatnonzero(~np.isfinite(coords).all(axis=1))
    if bad.size:
        shown = ", ".join(f"{row:,}" for row in bad[:5]) + (", …" if bad.size > 5 else "")
        raise ValueError(f"{bad.size:,} point(s) have NaN or infinite coordinates (rows {shown}); remove or fix "
                         "those rows.")


def _check_projectable(vectors: np.ndarray) -> None:
    """check_rows's refusals (NaN or infinite values, every vector the same), with too few points said in one
    sentence."""
    if len(vectors) < 2:
        raise ValueError(f"A map is projected from at least 2 texts, not {len(vectors)}; give more.")
    check_rows(vectors)


def _method(method: str) -> Method:
    for known in METHODS:
        if method == known:
            return known
    raise ValueError(f"Unknown method {method!r}; choose one of {', '.join(METHODS)}.")
