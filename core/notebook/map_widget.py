"""The map in a notebook: `MapWidget`, an anywidget over the Map page's canvas. Its JavaScript is built from the same
source as the Streamlit component's (ui/components/map_canvas/frontend/, src/widget.js) into
frontend/dist/map_widget.js and committed, so using it needs no Node; it draws the view core.plots.map_canvas builds
for the Map page (positions, colour codes, highlight bits, palette, legend, zoom labels, the query's star).

The contract with the browser is MapWidget's synced traits, each declared once below with its type; their JavaScript
side is frontend/src/contract.js (WidgetState). The binary columns travel as binary buffers (a column is its content
key followed by its bytes, as in Streamlit), never as JSON; the selection comes back as uint32 row numbers, and a
hover asks Python for that one row's text by a custom message ({"hover": row}, answered {"hover": {row, text,
image}}, the image a picture's thumbnail, none on a map of texts), so a million texts never go to the browser. The
zoom labels follow the first frame: once its points are drawn the browser asks for them ({"labels": true}) and they
come in the view, computed in a thread of their own (k-means at three levels and keywords took seconds at 1,000,000
points, which neither the points nor a hover wait for).

Open one with `Explorer.map(texts)` (embedded and projected as the Map page does), `Pictures.map(pictures, texts)`
(a model of images and texts; pictures hover their thumbnails), `MapWidget.from_vectors(vectors, texts)` or
`MapWidget.from_frame(frame)` (coordinates you have). Needs the notebook extra: `make notebook-extra`."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import traitlets

from core.analysis.map.clusters import matching
from core.analysis.map.projection import ProjectionParams
from core.data.labels import TEXTS, TagStore, labelled_table, tag_name
from core.data.rows import ROW_ID, positions_of
from core.data.thumbnails import data_uri
from core.maps.build import HEIGHT, MapPoints, build_map, map_points
from core.maps.checks import check_coords, check_labels, check_projectable, coordinate, map_method, map_texts
from core.maps.html import points_html
from core.maps.space import MapSpace
from core.paths import atomic_write
from core.plots.map_canvas import (
    blob_key,
    canvas_labels,
    canvas_points,
    highlight_blob,
    highlight_size,
    hover_line,
)

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


class MapWidget(anywidget.AnyWidget):
    """The Map page's canvas in a notebook cell: hover a point for its text, pan and zoom (finer cluster labels show
    as you zoom in), click a point or draw a Box or Lasso to select, hide categories in the legend.

    `selection`: the selected rows as a DataFrame (index `row`; columns row_id, text, label, x, y), empty at first;
    assign row numbers, row ids, a boolean mask or a DataFrame of rows to select from Python. `tag(name)` names the
    selection, and `tags` is every row with a true/false column per tag. `highlight(find)`: the Map page's "Highlight
    texts containing". `save_html(path)`: the map as one HTML file that opens anywhere. To react to a selection
    made in the browser, observe the `selected` trait: `widget.observe(callback, names="selected")`."""

    _esm = BUNDLE

    view = traitlets.Dict().tag(sync=True)  # CanvasViewData (core/plots/map_canvas.py)
    positions = traitlets.Bytes().tag(sync=True)  # the column the view's positions names
    codes = traitlets.Bytes().tag(sync=True)  # the column the view's codes names
    highlight_bits = traitlets.Bytes(b"").tag(sync=True)  # the column the view's highlight names; b"" for none
    # the selected rows, set by the browser or by Python; a change from the browser is not echoed back to it (ipywidgets
    # would send the rows straight back: 4 MB for a million)
    selected = Rows().tag(sync=True, echo_update=False, **ROWS)
    answered = traitlets.Int(0).tag(sync=True)  # counts Python's answers to selections: the browser then draws them

    def __init__(self, points: MapPoints, *, height: int = HEIGHT,
                 thumbnail: Callable[[int], bytes | None] | None = None) -> None:
        """`thumbnail(row)`: on a map of pictures, a picture's JPEG thumbnail, shown above its text on hover and kept
        in the saved HTML file (None for a text)."""
        if not BUNDLE.exists():
            raise FileNotFoundError(NOT_BUILT)
        canvas = points.canvas(height=height)
        super().__init__(view=dict(canvas.view), positions=canvas.blobs["positions"], codes=canvas.blobs["codes"])
        self._points = points
        self._thumbnail = thumbnail
        self._highlight: np.ndarray | None = None
        self._labelling: threading.Thread | None = None
        self._view_lock = threading.Lock()  # the labels' thread and highlight() both change the view
        self.on_msg(self._message)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, x: str = "x", y: str = "y", text: str = "text",
                   label: str | None = None, title: str | None = None, height: int = HEIGHT) -> MapWidget:
        """A map of coordinates you have: `frame`'s columns `x` and `y` (finite numbers) and `text`, coloured by the
        column `label` (else by k-means clusters of the positions); its `row_id` column, if any, names the rows."""
        for column in (x, y, text, *([label] if label is not None else [])):
            if column not in frame.columns:
                raise ValueError(f"The DataFrame has no column {column!r}; name its columns with x=, y=, text= and "
                                 "label=.")
        coords = np.column_stack([coordinate(frame[x], x), coordinate(frame[y], y)])
        check_coords(coords)
        rows = pd.DataFrame({"text": map_texts(frame[text]),
                             **({"label": frame[label].tolist()} if label is not None else {}),
                             **({ROW_ID: frame[ROW_ID].tolist()} if ROW_ID in frame.columns else {})})
        points = map_points(rows, coords, coords, title=title or f"{len(rows):,} points of a DataFrame",
                            label=None if label is None else "label")
        return cls(noted(points), height=height)

    @classmethod
    def from_vectors(cls, vectors: np.ndarray, texts: Sequence[str], *, labels: Sequence[object] | None = None,
                     method: str = "PCA", seed: int = 0, title: str | None = None,
                     height: int = HEIGHT) -> MapWidget:
        """A map of vectors you have, one per text, projected as the Map page projects them (`method` "PCA",
        "t-SNE" or "UMAP"; stored for next time) and coloured by `labels` (else by k-means clusters of the vectors)."""
        listed = map_texts(texts)
        chosen = map_method(method)
        vectors = np.asarray(vectors)
        if len(vectors) != len(listed):
            raise ValueError(f"There are {len(vectors):,} vectors and {len(listed):,} texts: give one text per vector.")
        check_labels(labels, len(listed))
        check_projectable(vectors)
        frame = pd.DataFrame({"text": listed, **({"label": list(labels)} if labels is not None else {})})
        points = build_map(frame, MapSpace(vectors), ProjectionParams(chosen, seed=seed),
                           title=title or f"{method} of {len(listed):,} vectors",
                           label=None if labels is None else "label")
        return cls(noted(points), height=height)

    @property
    def tags(self) -> pd.DataFrame:
        """The map's rows (row_id, text, label, …) with one true/false `tag_<name>` column per tag of its corpus, and
        x, y: the tags kept by row id in the cache folder, as the Map page keeps them (the same corpus, there or in
        another notebook, has the same tags)."""
        points = self._points
        return labelled_table(points.frame, TagStore().tags(TEXTS), points.coords)

    def tag(self, name: str) -> int:
        """Tag the rows selected now with `name` (a new tag, or more rows for one; a text may carry several tags),
        kept as the Map page keeps tags; returns how many of the map's rows carry it. Raises core.data.labels.TagError
        with one sentence for an empty name or an empty selection."""
        ids = self._points.row_ids
        state = TagStore().tag(TEXTS, name, [ids[i] for i in np.asarray(self.selected, np.int64)])
        return len(state.tags[tag_name(name)] & set(ids))

    def save_html(self, path: str | Path) -> Path:
        """Save the map, as shown (its colours, zoom labels, query star, highlight and its corpus's tags), as one
        HTML file that opens in any browser with no server and no network; returns its path. Raises
        core.maps.html.MapFileError above core.maps.html.MAX_POINTS points."""
        points = self._points
        saved = Path(path)
        thumbnails = None if self._thumbnail is None else [self._thumbnail(row) for row in range(len(points.frame))]
        page = points_html(points, TagStore().tags(TEXTS), highlight=self._highlight, thumbnails=thumbnails)
        atomic_write(saved, lambda tmp: tmp.write_text(page, encoding="utf-8"))
        return saved

    @property
    def selection(self) -> pd.DataFrame:
        """The selected rows: index `row` (the text's number), columns row_id, text, label, x, y (the map's
        position)."""
        rows = np.asarray(self.selected, dtype=np.int64)
        return self._points.table(rows).set_index(pd.Index(rows, name="row"))

    @selection.setter
    def selection(self, rows: Iterable[int] | Iterable[str] | np.ndarray | pd.DataFrame | pd.Series) -> None:
        self.selected = self._rows(rows)

    def highlight(self, find: str | Sequence[bool] | Sequence[int] | np.ndarray | None = None, *,
                  regex: bool = False) -> int:
        """Highlight the texts containing `find` (case-insensitive; a regular expression with `regex=True`), as the
        Map page's "Highlight texts containing" does, or the rows a boolean mask or row numbers name; the other points
        go grey. None or "" clears it. Returns how many points are highlighted."""
        n = len(self._points.frame)
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
        self._highlight = mask
        with self._view_lock, self.hold_sync():
            self.highlight_bits = bits
            self.view = {**self.view, **change}
        return count

    def _rows(self, rows: Iterable[int] | np.ndarray | pd.DataFrame | pd.Series) -> np.ndarray:
        """Row numbers from a list or array of them, a list of row ids, a boolean mask (one value per point), or a
        DataFrame or Series of rows (their index; a boolean Series is a mask)."""
        n = len(self._points.frame)
        if isinstance(rows, pd.Series) and rows.dtype == bool:
            found = rows.to_numpy()
        elif isinstance(rows, pd.DataFrame | pd.Series):
            found = rows.index.to_numpy()
        else:
            found = np.asarray(rows if isinstance(rows, np.ndarray) else list(rows))
        if found.dtype.kind in "UO" and found.size and all(isinstance(row, str) for row in found.tolist()):
            return self._row_ids(found.tolist())
        if found.dtype == bool:
            if found.shape != (n,):
                raise ValueError(f"A mask of {found.size:,} values does not fit the map's {n:,} points: give one "
                                 "value per point.")
            return np.flatnonzero(found)
        if found.size and (found.dtype.kind not in "iu" or found.min() < 0 or found.max() >= n):
            wrong = next(r for r in found.tolist() if not (isinstance(r, int) and 0 <= r < n))
            raise ValueError(f"{wrong!r} is not a row of the map: its rows are the numbers 0 to {n - 1:,}.")
        return found.astype(np.int64)

    def _row_ids(self, wanted: list[str]) -> np.ndarray:
        found = positions_of(self._points.row_ids, wanted)
        if len(found) != len(set(wanted)):
            missing = next(row for row in wanted if row not in set(self._points.row_ids))
            raise ValueError(f"{missing!r} is not a row id of the map: see `selection`'s row_id column, or give row "
                             "numbers.")
        return np.asarray(found, dtype=np.int64)

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
        if isinstance(row, int) and 0 <= row < len(self._points.frame):
            points = self._points
            text = hover_line(row, points.texts[row], points.colouring)
            jpeg = None if self._thumbnail is None else self._thumbnail(row)
            self.send({HOVER: {"row": row, "text": text, "image": None if jpeg is None else data_uri(jpeg)}})
        if content.get(LABELS) is True:
            self._label()


def noted(points: MapPoints) -> MapPoints:
    """`points`, after a warning of why its labels are not its colours (too many to tell apart), if they are not."""
    if points.coloured.note:
        warnings.warn(points.coloured.note, stacklevel=3)
    return points
