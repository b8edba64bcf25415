"""The map canvas in Chromium (WebGL through SwiftShader, no GPU), on a page that holds only the canvas: every point
drawn at 1,500 and at 1,000,000 points, counted in the canvas's pixels; a highlight redrawn from a bitmask without
the points sent again, and seen in the pixels; hover text answered by Python, also after a pan and a zoom; what a
user would notice breaking: the legend's toggles, the labels of each zoom level, the query's star, Reset view, and
Escape and Clear selection emptying Python's selection; and axe-core seen to fail, in the page and in the canvas's
shadow root."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from matplotlib.path import Path
from scipy import ndimage

from tests.browser.accessibility import violations
from tests.browser.canvas import (
    FIND_MAPS,
    MAP,
    canvas_xy,
    drag,
    draws,
    hover,
    map_state,
    next_frames,
    overlay_pixels,
    pixels,
    screen_position,
    screen_positions,
    tooltip,
    wait_drawn,
    wait_maps,
    zoom_in,
)
from tests.browser.harness import ROOT, SHOTS, fill, shoot, start_server
from tests.browser.layouts import MARKS, layout
from ui.components.map_canvas import FRONTEND

CONSTANTS = FRONTEND / "src" / "constants.js"

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


# The pointer arrives on a point and presses at once, and the camera's next frame comes while the button is down
# (seen under load): events dispatched in the page, so that frame falls between the press and the release every time
QUICK_CLICK = """async ([x, y]) => {
    %s
    const canvas = maps[0].querySelector("canvas.points");
    const at = { clientX: x, clientY: y, bubbles: true, composed: true };
    const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    window.dispatchEvent(new MouseEvent("mousemove", at));
    canvas.dispatchEvent(new MouseEvent("mousedown", { ...at, button: 0, buttons: 1 }));
    await frame();
    await frame();
    window.dispatchEvent(new MouseEvent("mouseup", { ...at, button: 0, buttons: 0 }));
    canvas.dispatchEvent(new MouseEvent("click", { ...at, button: 0, buttons: 0 }));
}""" % FIND_MAPS


def test_a_click_within_a_frame_of_the_pointers_arrival_selects_the_point_and_leaves_the_view(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    before = screen_position(page, 321)
    page.evaluate(QUICK_CLICK, list(before))
    assert _selected_in_python(page) == {321}
    np.testing.assert_allclose(screen_position(page, 321), before, atol=0.5)


# Streamlit mounts the canvas's element again at times (when a hover's rerun and a selection's cross): here the drawn
# map's view is mounted as Streamlit mounts it, under a key of its own, into one element, cleaned up, and mounted into
# another at once; then cleaned up and mounted after the canvas's wait
REMOUNT = """async ([element, waitMs]) => {
    %s
    const store = globalThis.__explorerMapBlobs;
    const columns = { blob: async (key) => store.blobs.get(key), arrivedAt: (key) => store.arrived.get(key) };
    const mount = (await [...globalThis.__explorerMapModules.values()][0]).default;
    const data = { ...maps[0].mapCanvas.data, element };
    const into = (parent) => mount({ data, parentElement: parent, setStateValue() {}, setTriggerValue() {} }, columns);
    const parents = [0, 1, 2].map(() => document.body.appendChild(document.createElement("div")));
    const drawn = async (parent) => { while (!parent.querySelector(".explorer-map")?.mapCanvas) {
        await new Promise((done) => setTimeout(done, 20)); } return parent.querySelector(".explorer-map").mapCanvas; };
    let cleanup = into(parents[0]);
    const first = await drawn(parents[0]);
    first.plot.zoomToArea({ x: -0.5, y: -0.5, width: 0.4, height: 0.4 });
    const zoomed = Array.from(first.plot.get("camera").view);
    cleanup();
    cleanup = into(parents[1]);
    const again = await drawn(parents[1]);
    const kept = again === first && !parents[0].firstChild
        && Array.from(again.plot.get("camera").view).every((v, i) => v === zoomed[i]);
    cleanup();
    await new Promise((done) => setTimeout(done, waitMs));
    const released = !parents[1].firstChild;
    into(parents[2]);
    return { kept, released, fresh: (await drawn(parents[2])) !== first };
}""" % FIND_MAPS


def test_a_canvas_mounted_again_at_once_is_the_same_canvas_and_one_left_unmounted_is_released(page, canvas_server):
    open_canvas(page, canvas_server, "n=1500")
    wait_ms = int(re.search(r"REMOUNT_KEEP_MS = (\d+)", CONSTANTS.read_text(encoding="utf-8")).group(1))
    got = page.evaluate(REMOUNT, ["remounted", wait_ms + 500])
    assert got == {"kept": True, "released": True, "fresh": True}


def _selected_in_python(page) -> set[int]:
    line = page.get_by_text("Selected ").filter(has_not_text="Selected 0:").first
    line.wait_for()
    return {int(row) for row in line.inner_text().split(":", 1)[1].split()}


def _nothing_selected_in_python(page) -> None:
    page.get_by_text(re.compile(r"^Selected 0:")).wait_for()


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
    before = draws(page)
    fill(page, "Highlight texts containing", "point 77777")
    wait_drawn(page, after=before)
    state = map_state(page)
    assert state["highlight"] and state["n"] == 1_000_000
    assert max(frames) < 2**20  # a 125 kB bitmask and the view; the 9 MB of points stay in the browser
    shoot(page, SHOTS / "canvas-1000000.png")


def _until(check, timeout_s: float = 10):
    """Poll `check()` until it returns something true (the canvas redraws a frame or two after an action)."""
    deadline = time.time() + timeout_s
    while not (found := check()):
        assert time.time() < deadline, "the canvas did not show it in time"
        time.sleep(0.1)
    return found


def _colours_at(page, rows) -> np.ndarray:
    """The drawn colour (RGB, on white) at each row's centre: its darkest pixel of the 3 x 3 there."""
    rgb = pixels(page).astype(int)
    xy = np.rint(canvas_xy(page, rows)).astype(int)
    return np.array([min((rgb[y + dy, x + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)), key=sum) for x, y in xy])


def _saturated(colours: np.ndarray) -> np.ndarray:
    return colours.max(axis=1) - colours.min(axis=1) > 60


def test_a_highlight_dims_the_other_points_in_the_drawn_pixels(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    texts = layout(1500, "grid")[1]
    lit = [i for i, text in enumerate(texts) if "point 7" in text]  # 7, 70-79, 700-799
    rest = [i for i in range(0, 1500, 7) if i not in lit]
    assert _saturated(_colours_at(page, lit + rest)).all()  # every point in its band's colour
    before = draws(page)
    fill(page, "Highlight texts containing", "point 7")
    wait_drawn(page, after=before)
    assert _saturated(_colours_at(page, lit)).all()
    dimmed = _colours_at(page, rest)
    assert not _saturated(dimmed).any() and (dimmed.min(axis=1) > 200).all()  # pale grey: a bitmask ignored fails here
    shoot(page, SHOTS / "canvas-highlight.png")


def test_a_legend_entry_hides_and_shows_its_points(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    labels = layout(1500, "grid")[2]
    band, others = ([i for i in range(1500) if (labels[i] == "band 1") == inside] for inside in (True, False))
    entry = page.locator(f"{MAP} .legend-item").filter(has=page.locator(".name", has_text=re.compile(r"^band 1$")))
    entry.click()
    assert entry.get_attribute("aria-pressed") == "false"
    _until(lambda: (_colours_at(page, band).min(axis=1) > 245).all())  # gone: background white
    assert _saturated(_colours_at(page, others)).all()
    hover(page, band[40])  # a hidden point is not hovered
    next_frames(page, 4)
    assert tooltip(page).is_hidden()
    entry.click()
    assert entry.get_attribute("aria-pressed") == "true"
    _until(lambda: _saturated(_colours_at(page, band)).all())


def _ink_near(page, row: int, half_width: int = 30, half_height: int = 8) -> int:
    """Pixels of dark label text on the overlay around where `row` is drawn."""
    rgba = overlay_pixels(page).astype(int)
    x, y = np.rint(canvas_xy(page, [row])[0]).astype(int)
    box = rgba[max(y - half_height, 0):y + half_height, max(x - half_width, 0):x + half_width]
    return int(((box[..., 3] > 200) & (box[..., :3].max(axis=2) < 90)).sum())


def test_labels_show_by_zoom_level(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500&marks=1")
    (middle, _), (closer, _), (closest, _) = MARKS["labels"].values()
    assert _ink_near(page, middle) > 20 and _ink_near(page, closer) == 0 and _ink_near(page, closest) == 0
    between = np.mean([screen_position(page, row) for row in (closer, closest)], axis=0)
    assert 2.5 <= zoom_in(page, between, 3) < 6  # level 1 from 2.5
    _until(lambda: _ink_near(page, closer) > 20)
    assert _ink_near(page, closest) == 0
    assert zoom_in(page, between, 6.5) >= 6  # level 2 from 6
    _until(lambda: _ink_near(page, closest) > 20)
    shoot(page, SHOTS / "canvas-labels-zoomed.png")


def _accent(rgba: np.ndarray) -> np.ndarray:
    """Pixels of the query's colour (#c2255c) on the overlay."""
    return (rgba[..., 3] > 150) & (np.abs(rgba[..., :3].astype(int) - [194, 37, 92]).max(axis=-1) < 50)


def test_the_query_star_and_its_lines_end_on_its_neighbours(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500&marks=1")
    accent = _accent(overlay_pixels(page))
    star = np.rint(canvas_xy(page, [1205, 1206, 1255, 1256]).mean(axis=0)).astype(int)  # MARKS["query_at"]
    assert accent[star[1] - 3:star[1] + 4, star[0] - 3:star[0] + 4].all()  # a filled star
    for x, y in np.rint(canvas_xy(page, MARKS["neighbours"])).astype(int):
        ring = accent[y - 8:y + 9, x - 8:x + 9]
        assert ring.sum() > 20 and not ring[6:11, 6:11].all()  # a ring around the point, not a blot on it
        middle = np.rint((star + [x, y]) / 2).astype(int)  # the line from the star
        assert accent[middle[1] - 2:middle[1] + 3, middle[0] - 2:middle[0] + 3].any()
    assert accent[star[1] - 6:star[1] + 7, star[0] + 14:star[0] + 80].sum() > 30  # "query: a query" beside it
    shoot(page, SHOTS / "canvas-query.png")


def test_reset_view_shows_every_point_as_at_first(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    fitted = screen_positions(page)
    zoom_in(page, screen_position(page, 777), 3)
    drag(page, [(0.5, 0.5), (0.3, 0.4)])
    assert np.abs(screen_positions(page) - fitted).max() > 100
    page.get_by_role("button", name="Reset view").click()
    _until(lambda: np.abs(screen_positions(page) - fitted).max() < 0.5)


def test_escape_and_clear_selection_empty_pythons_selection(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    selected = "(el) => el.mapCanvas.plot.get('selectedPoints').length"
    for clear in (lambda: page.keyboard.press("Escape"),
                  lambda: page.get_by_role("button", name="Clear selection").click()):
        page.mouse.click(*screen_position(page, 321))
        assert _selected_in_python(page) == {321}
        _until(lambda: page.locator(MAP).first.evaluate(selected) == 1)
        clear()
        _nothing_selected_in_python(page)
        _until(lambda: page.locator(MAP).first.evaluate(selected) == 0)


def test_new_points_select_the_rows_python_keeps_and_the_same_points_keep_the_users_selection(page, canvas_server):
    """The map page keeps a selection by row id: the same corpus in another order is selected where its rows now are,
    not at the old places; a redraw of the same points (another highlight) leaves the selection as the user made it."""
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    drawn = "(el) => [...el.mapCanvas.plot.get('selectedPoints')].sort((a, b) => a - b)"
    page.mouse.click(*screen_position(page, 321))
    assert _selected_in_python(page) == {321}
    _until(lambda: page.locator(MAP).first.evaluate(drawn) == [321])
    before = draws(page)
    page.get_by_text("Reverse the rows").click()
    _until(lambda: draws(page) > before, timeout_s=60)
    _until(lambda: page.locator(MAP).first.evaluate(drawn) == [1500 - 1 - 321])
    fill(page, "Highlight texts containing", "point 1")
    _until(lambda: page.locator(MAP).first.evaluate("(el) => el.mapCanvas.data.highlight !== null"), timeout_s=60)
    assert page.locator(MAP).first.evaluate(drawn) == [1500 - 1 - 321]


def test_hover_finds_the_point_under_the_pointer_after_a_pan_and_a_zoom(page, canvas_server):
    page.set_default_timeout(60_000)
    open_canvas(page, canvas_server, "n=1500")
    drag(page, [(0.5, 0.5), (0.62, 0.58)])
    next_frames(page)
    hover(page, 100)
    tooltip(page).filter(has_text=re.compile(r"^point 100$")).wait_for()
    zoom_in(page, screen_position(page, 777), 4)
    for row in (777, 778, 827):  # neighbours on the grid: a pick off by one would show another's text
        hover(page, row)
        tooltip(page).filter(has_text=re.compile(rf"^point {row}$")).wait_for()
    assert draws(page) == 1  # hovering asked Python for text only: the points were not sent or drawn again


def test_axe_reports_a_low_contrast_text_in_the_page_and_in_the_canvas_shadow_root(page, canvas_server):
    """axe-core shown to fail: each check of the browser tests passes only because nothing like this is there."""
    open_canvas(page, canvas_server, "n=1500")
    page.evaluate("""() => { const faint = document.createElement('p');
        faint.textContent = 'faint text in the page'; faint.style.cssText = 'color: #d0d0d0; background: white';
        document.querySelector("[data-testid='stMainBlockContainer']").prepend(faint); }""")
    page.locator(MAP).first.evaluate("""(el) => { const faint = document.createElement('span');
        faint.textContent = 'faint text in the map'; faint.style.cssText = 'color: #d8d8d8';
        el.querySelector('.legend').append(faint); }""")
    contrast = next(v for v in violations(page) if v["id"] == "color-contrast")
    found = {node["html"]: node["target"] for node in contrast["nodes"]}
    in_page = next(target for html, target in found.items() if "faint text in the page" in html)
    in_map = next(target for html, target in found.items() if "faint text in the map" in html)
    assert isinstance(in_page[0], str)
    assert isinstance(in_map[0], list) and len(in_map[0]) >= 2  # a path through the component's shadow root
