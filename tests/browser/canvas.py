"""Reading the map canvas in Chromium: how often it has drawn, its last draw's timing, and its pixels."""

from __future__ import annotations

import base64
import io
import time

import numpy as np
from PIL import Image

MAP = ".explorer-map"


def draws(page, nth: int = 0) -> int:
    value = page.locator(MAP).nth(nth).get_attribute("data-draws")
    return int(value or 0)


FIND_MAPS = """const maps = [];  // the canvases live in shadow roots
    const walk = (root) => root.querySelectorAll('*').forEach((el) => {
        if (el.matches('%s')) maps.push(el);
        if (el.shadowRoot) walk(el.shadowRoot); });
    walk(document);""" % MAP


def wait_maps(page, condition: str, timeout_s: float = 120) -> None:
    """Wait until the JavaScript `condition` holds of `maps`, the page's map elements in order."""
    page.wait_for_function(f"() => {{ {FIND_MAPS} return {condition}; }}", timeout=timeout_s * 1000, polling=50)


def wait_drawn(page, after: int = 0, nth: int = 0, timeout_s: float = 120) -> None:
    """Wait until the canvas has drawn more than `after` times."""
    wait_maps(page, f"maps.length > {nth} && Number(maps[{nth}].dataset.draws || 0) > {after}", timeout_s)


def map_state(page, nth: int = 0) -> dict:
    """The canvas's view as the browser holds it, and its last draw (performance.now() milliseconds)."""
    return page.locator(MAP).nth(nth).evaluate("""(el) => ({ n: el.mapCanvas.data.n,
        query: el.mapCanvas.data.query, highlight: el.mapCanvas.data.highlight, lastDraw: el.mapCanvas.lastDraw,
        selected: el.mapCanvas.selected.length })""")


def screen_position(page, row: int, nth: int = 0) -> tuple[float, float]:
    """Where row `row` is drawn, in page pixels."""
    canvas = page.locator(f"{MAP} canvas.points").nth(nth)
    box = canvas.bounding_box()
    x, y = page.locator(MAP).nth(nth).evaluate(f"(el) => el.mapCanvas.plot.getScreenPosition({row})")
    return box["x"] + x, box["y"] + y


def screen_positions(page, nth: int = 0) -> np.ndarray:
    """Where every row is drawn, in page pixels: (n, 2)."""
    box = page.locator(f"{MAP} canvas.points").nth(nth).bounding_box()
    xy = page.locator(MAP).nth(nth).evaluate("""(el) => { const m = el.mapCanvas;
        return Array.from({ length: m.data.n }, (_, i) => m.plot.getScreenPosition(i)); }""")
    return np.asarray(xy, dtype=float) + [box["x"], box["y"]]


def drag(page, path: list[tuple[float, float]], nth: int = 0) -> None:
    """Press at the first of `path`'s points (fractions of the canvas) and move through the others, as a hand does."""
    canvas = page.locator(f"{MAP} canvas.points").nth(nth)
    canvas.scroll_into_view_if_needed()  # the mouse acts on what the window shows
    box = canvas.bounding_box()
    at = [(box["x"] + fx * box["width"], box["y"] + fy * box["height"]) for fx, fy in path]
    page.mouse.move(*at[0])
    page.mouse.down()
    for x, y in at[1:]:
        page.mouse.move(x, y, steps=8)
    page.mouse.up()


def _image(page, selector: str, nth: int) -> Image.Image:
    url = page.locator(f"{MAP} {selector}").nth(nth).evaluate("(c) => c.toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA")


def pixels(page, nth: int = 0) -> np.ndarray:
    """The points canvas as RGB (height, width, 3): what WebGL drew, without the labels and the query on top."""
    image = _image(page, "canvas.points", nth)
    white = Image.new("RGBA", image.size, "white")
    return np.asarray(Image.alpha_composite(white, image).convert("RGB"))  # as the page shows it, on white


def overlay_pixels(page, nth: int = 0) -> np.ndarray:
    """The canvas over the points (the query, its lines, the labels) as RGBA (height, width, 4)."""
    return np.asarray(_image(page, "canvas.overlay", nth))


def canvas_xy(page, rows, nth: int = 0) -> np.ndarray:
    """Where `rows` are drawn in the canvas's own pixels: (len(rows), 2)."""
    return np.asarray(page.locator(MAP).nth(nth).evaluate(
        "(el, rows) => rows.map((i) => el.mapCanvas.plot.getScreenPosition(i))", [int(r) for r in rows]))


def zoom(page, nth: int = 0) -> float:
    """The zoom against the fitted view (1: every point in view), as the labels read it."""
    return page.locator(MAP).nth(nth).evaluate(
        "(el) => el.mapCanvas.plot.get('camera').view[0] / el.mapCanvas.fitted")


def zoom_in(page, at: tuple[float, float], until: float, nth: int = 0, timeout_s: float = 60) -> float:
    """Scroll the wheel over `at` (page pixels), a notch at a time, until the zoom is at least `until` (an
    AssertionError after `timeout_s`: a wheel the canvas ignores must not loop for ever)."""
    page.mouse.move(*at)
    deadline = time.monotonic() + timeout_s
    while zoom(page, nth) < until:
        assert time.monotonic() < deadline, f"the zoom stayed under {until} for {timeout_s} s"
        page.mouse.wheel(0, -60)
        next_frames(page)
    return zoom(page, nth)


def next_frames(page, frames: int = 2) -> None:
    """Wait until the page has drawn `frames` more frames."""
    page.evaluate("(n) => new Promise((done) => { const step = (k) => k ? requestAnimationFrame(() => step(k - 1)) "
                  ": done(); step(n); })", frames)


def isolated_row(page, nth: int = 0, among: range | None = None) -> int:
    """The row drawn farthest from any other (of the rows `among`, where given), so that the pointer on it can only
    mean it."""
    xy = screen_positions(page, nth)
    gaps = (np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.diag(np.full(len(xy), np.inf))).min(axis=1)
    rows = among if among is not None else range(len(xy))
    return rows[int(gaps[rows.start:rows.stop].argmax())]


def hover(page, row: int, nth: int = 0) -> None:
    """The pointer moved onto row `row` from outside the map, as a hand does."""
    page.locator(f"{MAP} canvas.points").nth(nth).scroll_into_view_if_needed()  # the mouse acts on what is shown
    page.mouse.move(2, 2)
    page.mouse.move(*screen_position(page, row, nth), steps=4)


def tooltip(page, nth: int = 0):
    return page.locator(f"{MAP} .tooltip").nth(nth)
