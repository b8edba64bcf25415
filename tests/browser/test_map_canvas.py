"""The map canvas in Chromium (WebGL through SwiftShader, no GPU), on a page that holds only the canvas: every point
drawn at 1,500 and at 1,000,000 points, counted in the canvas's pixels; a highlight redrawn from a bitmask without
the points sent again; hover text answered by Python."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

from tests.browser.canvas import map_state, pixels, screen_position, wait_drawn
from tests.browser.harness import ROOT, SHOTS, fill, shoot, start_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def canvas_server(chromium):
    app = start_server(SHOTS / "server-canvas.log", script=ROOT / "tests" / "browser" / "canvas_app.py",
                       env={"PYTHONPATH": str(ROOT)})
    yield app
    assert "Traceback" not in app.log()
    app.stop()


def open_canvas(page, server, query: str) -> None:
    page.goto(f"{server.url}/?{query}")
    wait_drawn(page, timeout_s=300)


def test_every_point_of_a_1500_point_grid_is_drawn(page, canvas_server):
    open_canvas(page, canvas_server, "n=1500")
    ink = (pixels(page) < 235).any(axis=2)  # anything but the white background
    _, count = ndimage.label(ink)
    assert count == 1_500
    shoot(page, SHOTS / "canvas-1500.png")


def test_hover_shows_the_rows_text_fetched_from_python(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    page.mouse.move(*screen_position(page, 1234))
    page.locator(".explorer-map .tooltip").filter(has_text="point 1234").wait_for()


def test_a_million_points_are_all_drawn_and_a_highlight_sends_only_its_bitmask(page, canvas_server):
    page.set_default_timeout(300_000)
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
    open_canvas(page, canvas_server, "n=1000000&layout=needles")
    assert map_state(page)["n"] == 1_000_000
    rgb = pixels(page).astype(int)
    red = (rgb[..., 0] > 200) & (rgb[..., 1] < 150) & (rgb[..., 2] < 150)  # the needles: the last 10 rows
    assert ndimage.label(red)[1] >= 8  # a sample of the first rows would have none (two may touch the edge)
    blue = (rgb[..., 2] > 180) & (rgb[..., 0] < 170)
    rows, cols = np.flatnonzero(blue.any(axis=1)), np.flatnonzero(blue.any(axis=0))
    square = blue[rows[0] + 2:rows[-1] - 1, cols[0] + 2:cols[-1] - 1]
    assert square.mean() > 0.99  # 999,990 points cover every pixel of their square: a sample would leave holes
    assert max(frames) <= 16 * 2**20
    frames.clear()
    fill(page, "Highlight texts containing", "point 77777")
    wait_drawn(page, after=1)
    state = map_state(page)
    assert state["highlight"] and state["n"] == 1_000_000
    assert max(frames) < 2**20  # a 125 kB bitmask and the view; the 9 MB of points stay in the browser
    shoot(page, SHOTS / "canvas-1000000.png")
