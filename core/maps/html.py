"""A map as one HTML file that opens anywhere, with no server and no network: the Map page's "Download the map as
HTML", MapWidget.save_html and `python -m core project --output map.html` all write what `map_html` gives.

The file is the canvas's third host (ui/components/map_canvas/frontend/src/file.js, built into dist/map_file.js and
inlined here) and one JSON island it reads: the view the canvas draws (core.plots.map_canvas), its binary columns in
base64 (positions float32, colour codes uint8, a highlight's bits), the texts, the values hovering shows and the
row ids as gzip'd JSON in base64 (the browser inflates them with DecompressionStream), and on a map of pictures each
picture's JPEG thumbnail in base64. Row ids that are the texts' digests (core.data.rows) are not stored: the browser
computes them again when a CSV is downloaded. Tags go in as row numbers. Every text is data: the island escapes `<`,
`>` and `&`, and the page sets it as text. The file's Content-Security-Policy lets it fetch nothing, and it holds no
path of the machine that made it."""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from core.data.labels import Tags, tags_here
from core.data.rows import text_row_ids
from core.maps.build import HEIGHT, MapPoints
from core.plots.map import Colouring
from core.plots.map_canvas import KEY_CHARS, CanvasView, blob_key, canvas_view, shown_value

BUNDLE = Path(__file__).resolve().parents[2] / "ui" / "components" / "map_canvas" / "frontend" / "dist" / "map_file.js"
NOT_BUILT = ("The map file's JavaScript (ui/components/map_canvas/frontend/dist/map_file.js) is missing: restore it "
             "with `git checkout -- ui/components/map_canvas/frontend/dist`, or rebuild it with `make canvas` "
             "(Node 20).")
DATA_ID = "explorer-map-data"  # frontend/src/file.js: DATA_ID
MAX_POINTS = 1_000_000
# Nothing may be fetched: no script, style, font or image from elsewhere, no fetch or XMLHttpRequest, no form.
# 'unsafe-eval': regl (under regl-scatterplot) compiles its draw commands with Function().
POLICY = ("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
          "img-src data: blob:; form-action 'none'; base-uri 'none'")
ABOUT = ("Saved by the Embedding Explorer as one file: it opens with no server and no network. Positions are float32 "
         "(x and y in the CSVs to about 7 significant digits); texts are kept whole.")
_PATH = re.compile(r"(?:[A-Za-z]:)?[\\/](?:[^\s\\/,·]+[\\/])+([^\s\\/,·]+)")  # a folder path: kept as its last part


class MapFileError(ValueError):
    """A map that cannot be saved as one file; the message says why and what to do."""


@dataclass(frozen=True)
class FileRows:
    """What the file says of each point beyond the canvas: its text, its colour value as hovering shows it (named
    `title`), its row id and, on a map of pictures, each picture's thumbnail (a JPEG; None for a text), which
    hovering shows above its text."""

    texts: Sequence[str]
    values: Sequence[str]
    title: str
    row_ids: Sequence[str]
    thumbnails: Sequence[bytes | None] | None = None


def file_rows(texts: Sequence[str], colouring: Colouring, row_ids: Sequence[str]) -> FileRows:
    """Each point's text, its colour value as hovering shows it (core.plots.map_canvas.hover_line) and its row id."""
    return FileRows(texts, [shown_value(value, colouring) for value in colouring.values], colouring.title, row_ids)


def _zipped(value: object) -> str:
    """`value` as JSON, gzip'd (no timestamp: the same map gives the same file) and in base64."""
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(data, mtime=0)).decode("ascii")


def _island(payload: dict) -> str:
    """JSON that no text inside can end early: `<`, `>` and `&` are written as \\u escapes."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _script(code: str) -> str:
    """The bundle, safe inside a <script> element (an escaped slash is the same slash in JavaScript's strings)."""
    return re.sub(r"</(script)", r"<\\/\1", code, flags=re.IGNORECASE).replace("<!--", "<\\!--")


def _bundle() -> str:
    if not BUNDLE.exists():
        raise FileNotFoundError(NOT_BUILT)
    return BUNDLE.read_text(encoding="utf-8")


def without_paths(title: str) -> str:
    """A title with each folder path (a model loaded from disk, say) cut to its last part."""
    return _PATH.sub(r"\1", title)


def check_savable(n: int) -> None:
    if n > MAX_POINTS:
        raise MapFileError(f"A map file holds at most {MAX_POINTS:,} points, and this map has {n:,}: sample it on the "
                           "Map page (or map fewer texts) and save again, or export its points as CSV or Parquet.")


def map_html(canvas: CanvasView, rows: FileRows, tags: Tags | None = None) -> str:
    """The map `canvas` draws as one HTML file, with `rows` and the `tags` its rows carry."""
    n = canvas.view["n"]
    check_savable(n)
    label = without_paths(canvas.view["label"])
    view = {**canvas.view, "label": label, "height": HEIGHT}
    place = {row_id: i for i, row_id in enumerate(rows.row_ids)}
    payload = {
        "about": ABOUT,
        "columns": {blob_key(data): base64.b64encode(data[KEY_CHARS:]).decode("ascii")
                    for data in canvas.blobs.values()},
        "place": {"scale": canvas.points.scale, "centre": list(canvas.points.centre)},
        "rowIds": None if list(rows.row_ids) == text_row_ids(rows.texts) else _zipped(list(rows.row_ids)),
        "tags": {name: sorted(place[row] for row in marked if row in place)
                 for name, marked in sorted(tags_here(rows.row_ids, tags or {}).items())},
        "texts": _zipped(list(rows.texts)),
        "thumbnails": None if rows.thumbnails is None else [  # JPEGs: gzip would not shrink them
            None if jpeg is None else base64.b64encode(jpeg).decode("ascii") for jpeg in rows.thumbnails],
        "values": _zipped(list(rows.values)),
        "valueTitle": rows.title,
        "view": view,
    }
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(label)}</title>\n</head>\n<body>\n"
            f'<script type="application/json" id="{DATA_ID}">{_island(payload)}</script>\n'
            f'<script type="module">{_script(_bundle())}</script>\n</body>\n</html>\n')


def points_html(points: MapPoints, tags: Tags | None = None, *, highlight: np.ndarray | None = None,
                thumbnails: Sequence[bytes | None] | None = None) -> str:
    """A MapPoints map (the notebook's, the command line's) as one HTML file: its colouring, zoom labels, query
    star, `highlight` and, on a map of pictures, each row's thumbnail (FileRows)."""
    check_savable(len(points.frame))
    colouring = points.colouring
    canvas = canvas_view(points.coords, colouring, label=points.title, highlight=highlight, query=points.query,
                         labels=points.zoom_labels(), height=HEIGHT)
    rows = file_rows(points.texts, colouring, points.row_ids)
    return map_html(canvas, replace(rows, thumbnails=thumbnails), tags)
