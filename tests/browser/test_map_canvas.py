"""The map canvas in Chromium (WebGL through SwiftShader, no GPU), on a page that holds only the canvas: every point
drawn at 1,500 and at 1,000,000 points, counted in the canvas's pixels; a highlight redrawn from a bitmask without
the points sent again; hover text answered by Python."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.path import Path
from scipy import ndimage

from tests.browser.canvas import (
    drag,
    map_state,
    pixels,
    screen_position,
    screen_positions,
    wait_drawn,
    wait_maps,
)
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


def test_a_drag_in_pan_and_zoom_moves_the_points_with_the_pointer(page, canvas_server):
    open_canvas(page, canvas_server, "n=1500")
    before = np.array(screen_position(page, 100))
    page.mouse.move(5, 5)  # where the pointer last was, away from the map
    drag(page, [(0.5, 0.5), (0.6, 0.55)])
    box = page.locator(".explorer-map canvas.points").bounding_box()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")  # panned
    np.testing.assert_allclose(np.array(screen_position(page, 100)) - before,
                               [0.1 * box["width"], 0.05 * box["height"]], atol=2)


def test_a_click_on_a_point_sends_python_its_row(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    page.mouse.click(*screen_position(page, 321))
    assert _selected_in_python(page) == {321}


def _selected_in_python(page) -> set[int]:
    line = page.get_by_text("Selected ").filter(has_not_text="Selected 0:").first
    line.wait_for()
    return {int(row) for row in line.inner_text().split(":", 1)[1].split()}


@pytest.mark.parametrize("tool, path", [
    ("Box", [(0.3, 0.3), (0.62, 0.55)]),
    ("Lasso", [(0.2, 0.2), (0.8, 0.3), (0.45, 0.85), (0.2, 0.21)]),  # a triangle
])
def test_box_and_lasso_send_python_the_rows_inside_them(page, canvas_server, tool, path):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    page.get_by_role("button", name=tool).click()
    drag(page, path)
    got = _selected_in_python(page)
    box = page.locator(".explorer-map canvas.points").bounding_box()
    corners = [(0.3, 0.3), (0.62, 0.3), (0.62, 0.55), (0.3, 0.55)] if tool == "Box" else path
    shape = Path([(box["x"] + fx * box["width"], box["y"] + fy * box["height"]) for fx, fy in corners])
    xy = screen_positions(page)
    # 3 px inside the edge and 3 px outside it (the sign of matplotlib's radius follows the path's orientation): a
    # point on the edge may go either way
    inside, near = sorted((set(np.flatnonzero(shape.contains_points(xy, radius=r))) for r in (-3, 3)), key=len)
    assert len(inside) > 100 and inside <= got <= near


def test_compared_maps_zoom_and_select_together(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500&compare=1")
    wait_drawn(page, nth=1)
    canvas = page.locator(".explorer-map canvas.points").first
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 3, box["y"] + box["height"] / 3)
    page.mouse.wheel(0, -400)
    views = "maps.map((m) => Array.from(m.mapCanvas.plot.get('camera').view))"
    wait_maps(page, f"(([a, b]) => a[0] > 1.05 && a.every((v, i) => Math.abs(v - b[i]) < 1e-6))({views})")  # B with A
    page.get_by_role("button", name="Box").first.click()
    drag(page, [(0.1, 0.1), (0.5, 0.5)])
    got = _selected_in_python(page)
    assert len(got) > 20
    drawn = "(el) => Array.from(el.mapCanvas.plot.get('selectedPoints')).sort((a, b) => a - b)"
    wait_maps(page, "maps.every((m) => m.mapCanvas.plot.get('selectedPoints').length > 0)")
    for nth in (0, 1):
        assert set(page.locator(".explorer-map").nth(nth).evaluate(drawn)) == got  # drawn on both, as Python has it
    shoot(page, SHOTS / "canvas-compare.png")


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
