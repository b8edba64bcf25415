"""What the map canvas draws, as binary columns and one small view: positions (float32 x, then y), a colour code per
point (uint8), a highlight bitmask, the palette and legend the codes index, labels, and the query.

Each column is a blob: its content key (KEY_CHARS ASCII hex characters) followed by its bytes, so the browser keeps it
and a rerun that changes only the view sends none of them again. The view's keys are `CanvasViewData` below: with the
three keys the wrapper adds (`CanvasData`, ui/components/map_canvas/), the contract with the browser, whose side of it
is frontend/src/contract.js."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NotRequired, TypedDict

import numpy as np
import pandas as pd
from plotly.colors import sample_colorscale

from core.analysis.map.projection import NOISE
from core.plots.map import GREY, MAX_CATEGORIES, PALETTE, Colouring, QueryMark

KEY_CHARS = 32  # loader.js's KEY_BYTES
SCALE_STEPS = 200  # codes 0..199 of a number colouring: Viridis in 200 steps
CATEGORY_ALPHA, GREY_ALPHA, DIMMED_ALPHA = 0.85, 0.5, 0.22
OTHER_GREY = "#868e96"  # the categories past the legend's MAX_CATEGORIES, darker than noise's grey
NOT_MEASURED = "not measured"
HOVER_CHARS = 500  # of a text, shown on hover (frontend/src/file.js: HOVER_CHARS)


class LegendItem(TypedDict):
    code: int  # the colour code of its points
    name: str
    count: int  # its points


class ColourScale(TypedDict):
    stops: list[str]  # five colours, lowest value first
    min: str  # the lowest and highest values, as shown
    max: str


class Legend(TypedDict):
    title: str
    items: list[LegendItem]  # each a button that hides or shows its points; for a scale, the points without a number
    scale: NotRequired[ColourScale]  # a number colouring's


class Label(TypedDict):
    x: float  # in the positions' units
    y: float
    text: str
    level: int  # 0, the coarsest, shows from the fitted zoom; finer levels as the map is zoomed in
    size: int  # points in its cluster: larger clusters' labels are placed first


class Query(TypedDict):
    x: float  # the star, in the positions' units
    y: float
    text: str
    neighbours: list[tuple[float, float]]  # where its lines end: its nearest texts in the full space


class CanvasViewData(TypedDict):
    """One map's view, as the browser reads it (frontend/src/contract.js: MapData). Three keys name binary columns by
    their content keys."""

    n: int  # points
    positions: str  # the positions column: float32, every x then every y, scaled into [-1, 1] with the aspect kept
    codes: str  # the colour codes column: one uint8 per point, an index into `palette`
    highlight: str | None  # the highlight column: bit i, least significant first in each byte, set when point i is
    # highlighted (numpy's packbits, bitorder="little"); None: nothing highlighted
    highlighted: int  # points highlighted (n without a highlight)
    highlightSize: float  # pixels of a highlighted point at the fitted zoom
    pointSize: float  # pixels of a point at the fitted zoom
    palette: list[tuple[str, float]]  # (hex colour, alpha) of each code
    dimmed: int  # the code a highlight gives the points it leaves out
    legend: Legend
    bounds: tuple[float, float, float, float]  # x0, y0, x1, y1 of the positions
    label: str  # the map's accessible name
    height: int  # pixels
    labels: list[Label]
    query: Query | None  # the star, with lines to its nearest texts
    link: str  # maps with the same link pan, zoom and select together; "" for none


def blob(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=KEY_CHARS // 2).hexdigest().encode("ascii") + payload


def blob_key(data: bytes) -> str:
    return data[:KEY_CHARS].decode("ascii")


@dataclass(frozen=True)
class CanvasPoints:
    """A map's positions scaled into [-1, 1] (aspect kept, centred), as the positions blob, with their bounds."""

    blob: bytes
    bounds: tuple[float, float, float, float]  # x0, y0, x1, y1
    scale: float  # canvas units per map unit
    centre: tuple[float, float]

    def place(self, x: float, y: float) -> tuple[float, float]:
        """A map position (the query's) in the canvas's units."""
        return (float((x - self.centre[0]) * self.scale), float((y - self.centre[1]) * self.scale))


def canvas_points(coords: np.ndarray) -> CanvasPoints:
    # a column at a time: reductions over a column of an (n, 2) array stride, three times slower at 1,000,000
    x, y = (np.ascontiguousarray(coords[:, axis], dtype=np.float64) for axis in (0, 1))
    low, high = np.array([x.min(), y.min()]), np.array([x.max(), y.max()])
    centre = (low + high) / 2
    half = float(np.max(high - low)) / 2
    scale = 1.0 / half if half > 0 else 1.0
    scaled = np.empty((2, len(x)), np.float32)  # x, then y
    for row, column, middle in ((0, x, centre[0]), (1, y, centre[1])):
        np.multiply(column - middle, scale, out=scaled[row], casting="same_kind")
    x0, y0 = scaled.min(axis=1)
    x1, y1 = scaled.max(axis=1)
    return CanvasPoints(blob(scaled.tobytes()), (float(x0), float(y0), float(x1), float(y1)), scale,
                        (float(centre[0]), float(centre[1])))


@dataclass(frozen=True)
class CanvasColours:
    """A colour code per point (the codes blob), the palette the codes index ((hex, alpha) each), the legend, the
    code of a point the highlight leaves out, and a sentence for the caption when some categories share one grey."""

    blob: bytes
    palette: list[tuple[str, float]]
    legend: Legend
    dimmed: int
    note: str = ""


def _category_order(names: Iterable[str]) -> list[str]:
    """Numbers in numeric order, then names alphabetically: cluster 10 after cluster 9."""
    return sorted(names, key=lambda v: (not v.lstrip("-").isdigit(), int(v) if v.lstrip("-").isdigit() else 0, v))


def _category_colours(colouring: Colouring) -> CanvasColours:
    """A colour each for the MAX_CATEGORIES largest categories, one grey for all the others, another for noise."""
    inverse, found = pd.factorize(np.asarray(colouring.values, dtype=object))  # one pass, not one per name
    sizes = dict(zip(found, np.bincount(inverse, minlength=len(found)).tolist()))
    ordered = _category_order(set(found) - {NOISE})
    kept = set(sorted(ordered, key=lambda name: -sizes[name])[:MAX_CATEGORIES])  # the largest; ties in name order
    names = [name for name in ordered if name in kept]
    grouped = len(ordered) - len(names)
    other, noise = len(names), len(names) + (1 if grouped else 0)
    code_of = {name: code for code, name in enumerate(names)} | {NOISE: noise}
    codes = np.array([code_of.get(name, other) for name in found], np.uint8)[inverse]
    counts = np.bincount(codes, minlength=noise + 1)
    palette = [(PALETTE[i % len(PALETTE)], CATEGORY_ALPHA) for i in range(len(names))]
    items = [LegendItem(code=code, name=name, count=int(counts[code])) for code, name in enumerate(names)]
    note = ""
    if grouped:
        items.append(LegendItem(code=other, name=f"other ({grouped:,} smaller)", count=int(counts[other])))
        palette.append((OTHER_GREY, CATEGORY_ALPHA))
        note = (f"Only the {len(names)} largest of the {len(ordered):,} {colouring.title} values have a colour of "
                f"their own; the other {grouped:,} share one grey, “other”.")
    if counts[noise]:
        items.append(LegendItem(code=noise, name=NOISE, count=int(counts[noise])))
        palette.append((GREY, GREY_ALPHA))
    palette.append((GREY, DIMMED_ALPHA))
    return CanvasColours(blob(codes.tobytes()), palette, Legend(title=colouring.title, items=items),
                         len(palette) - 1, note)


def _number_colours(colouring: Colouring) -> CanvasColours:
    """Codes 0..SCALE_STEPS - 1 on Viridis, SCALE_STEPS for points without a number."""
    values = np.asarray(colouring.values, dtype=np.float64)
    measured = ~np.isnan(values)
    low, high = (float(np.min(values[measured])), float(np.max(values[measured]))) if measured.any() else (0, 1)
    steps = np.linspace(0, 1, SCALE_STEPS)
    palette = [(_hex(c), CATEGORY_ALPHA) for c in sample_colorscale("Viridis", list(steps))]
    share = (values - low) / (high - low) if high > low else np.zeros_like(values)
    codes = np.where(measured, np.rint(np.nan_to_num(share) * (SCALE_STEPS - 1)), SCALE_STEPS).astype(np.uint8)
    items = []
    if (~measured).any():
        items.append(LegendItem(code=SCALE_STEPS, name=NOT_MEASURED, count=int((~measured).sum())))
    palette += [(GREY, GREY_ALPHA), (GREY, DIMMED_ALPHA)]
    scale = ColourScale(stops=[_hex(c) for c in sample_colorscale("Viridis", [0, 0.25, 0.5, 0.75, 1])],
                        min=f"{low:.3g}", max=f"{high:.3g}")
    legend = Legend(title=colouring.title, items=items, scale=scale)
    return CanvasColours(blob(codes.tobytes()), palette, legend, len(palette) - 1)


def canvas_colours(colouring: Colouring) -> CanvasColours:
    return _category_colours(colouring) if colouring.categorical else _number_colours(colouring)


def _hex(colour: str) -> str:
    """Plotly's 'rgb(r, g, b)' as '#rrggbb'."""
    r, g, b = (round(float(v)) for v in colour[colour.index("(") + 1:-1].split(","))
    return f"#{r:02x}{g:02x}{b:02x}"


def highlight_blob(mask: np.ndarray) -> bytes:
    """Bit i (least significant first within each byte) set when point i is highlighted."""
    return blob(np.packbits(np.asarray(mask, dtype=bool), bitorder="little").tobytes())


def point_size(n: int) -> float:
    """Pixels at the fitted zoom: large for a lesson's 1,500 points, small enough for a million to show shape."""
    return float(np.clip(9 - 1.3 * np.log10(max(n, 1)), 1.5, 6))


def highlight_size(n: int, highlighted: int) -> float:
    """Highlighted points are drawn as large as if they were the only points, and at least 1.6 times the others: a
    dozen matches among a million stand out, half of them do not cover the rest."""
    return max(1.6 * point_size(n), point_size(highlighted))


def shown_value(value: object, colouring: Colouring) -> str:
    """A point's colour value as hovering shows it."""
    if colouring.categorical:
        return f"{value}"
    number = float(value)  # type: ignore[arg-type]
    return NOT_MEASURED if np.isnan(number) else f"{number:.3g}"


def hover_line(index: int, text: str, colouring: Colouring, *, limit: int = HOVER_CHARS) -> str:
    """What hovering point `index` shows: its number, its colour value and its text."""
    body = text if len(text) <= limit else text[:limit - 1] + "…"
    return f"#{index} · {colouring.title}: {shown_value(colouring.values[index], colouring)}\n{body}"


def canvas_query(query: QueryMark | None, points: CanvasPoints, coords: np.ndarray) -> Query | None:
    if query is None:
        return None
    x, y = points.place(*query.position)
    return Query(x=x, y=y, text=query.text, neighbours=[points.place(*coords[i]) for i in query.neighbours])


def canvas_labels(labels: Sequence[tuple[float, float, str, int, int]], points: CanvasPoints) -> list[Label]:
    """(x, y, text, level, size) in map units, in the canvas's units."""
    return [Label(x=points.place(x, y)[0], y=points.place(x, y)[1], text=text, level=level, size=size)
            for x, y, text, level, size in labels]


@dataclass(frozen=True)
class CanvasView:
    """Everything one map canvas draws: its blobs (sent once each) and the view that names them."""

    blobs: dict[str, bytes]  # positions, codes and (with a highlight) highlight: a content key and the bytes each
    view: CanvasViewData
    points: CanvasPoints  # how the positions were scaled into the canvas's units
    note: str = ""  # for the caption: what the colours leave out

    @cached_property
    def key(self) -> str:
        """The view's content key: a hover's text is kept for the view it was asked in."""
        return blob_key(blob(json.dumps(self.view, sort_keys=True).encode()))


def canvas_view(coords: np.ndarray, colouring: Colouring, *, label: str, highlight: np.ndarray | None = None,
                query: QueryMark | None = None, labels: Sequence[tuple[float, float, str, int, int]] = (),
                height: int = 720, link: str = "") -> CanvasView:
    """The canvas of one map: `highlight` leaves the other points grey, `labels` are (x, y, text, level, size) in
    map units, and maps with the same `link` pan, zoom and select together."""
    points = canvas_points(coords)
    colours = canvas_colours(colouring)
    blobs = {"positions": points.blob, "codes": colours.blob}
    if highlight is not None:
        blobs["highlight"] = highlight_blob(highlight)
    n = len(coords)
    highlighted = int(np.count_nonzero(highlight)) if highlight is not None else n
    view = CanvasViewData(
        n=n, positions=blob_key(points.blob), codes=blob_key(colours.blob),
        highlight=blob_key(blobs["highlight"]) if highlight is not None else None, highlighted=highlighted,
        highlightSize=highlight_size(n, highlighted), pointSize=point_size(n), palette=colours.palette,
        dimmed=colours.dimmed, legend=colours.legend, bounds=points.bounds, label=label, height=height,
        labels=canvas_labels(labels, points), query=canvas_query(query, points, coords), link=link)
    return CanvasView(blobs, view, points, colours.note)
