"""The map canvas in headless Chromium (software WebGL) at 100,000 and 1,000,000 points, beside the anchor of the
same run: the same points drawn in one raw WebGL2 frame (bench/raw_webgl.py). The canvas page holds the map alone
(tests/browser/canvas_app.py), so the times start once the projection is ready."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.common import Row
from bench.raw_webgl import raw_frame_s
from core.plots.map_canvas import point_size
from tests.browser.canvas import FIND_MAPS, drag, draws, map_state, screen_position, wait_drawn
from tests.browser.harness import ROOT, fill, launch_chromium, start_server
from tests.browser.layouts import NEEDLES, layout

SIZES = (100_000, 1_000_000)
LASSO = [(0.2, 0.2), (0.5, 0.25), (0.35, 0.6), (0.2, 0.21)]


@dataclass(frozen=True)
class CanvasTiming:
    open_s: float  # page opened (navigation, the server's script run, the points' message, the draw) until drawn
    open_draw_s: float  # in the browser: the points arrived until drawn
    largest_message_mb: float
    highlight_s: float  # highlight typed until redrawn, through Python and back
    highlight_draw_s: float  # in the browser: the bitmask arrived until redrawn
    highlight_message_mb: float
    hover_s: float  # pointer on a point until its text, fetched from Python, shows
    lasso_s: float  # lasso released until Python's answer (the selected rows) shows
    raw_frame_s: float
    width: int
    height: int


def _in_browser_s(page) -> float:
    last = map_state(page)["lastDraw"]
    return (last["ended"] - last["started"]) / 1000


ARM = """(event) => { const clock = window.benchClock = {};
    window.addEventListener(event, () => { clock.start ??= performance.now(); }, { capture: true });
    const check = () => { if (clock.start !== undefined && shown()) clock.end = performance.now();
                          else requestAnimationFrame(check); };
    requestAnimationFrame(check); }"""


def _timed(page, event: str, shown: str, act) -> float:
    """Seconds, by the page's clock, from the first `event` after `act` begins until the JavaScript condition
    `shown` holds in a frame (so the playwright round trips of acting and waiting are not counted)."""
    page.evaluate(ARM.replace("shown()", f"(() => {{ {FIND_MAPS} return {shown}; }})()"), event)
    act()
    page.wait_for_function("() => window.benchClock.end !== undefined", timeout=600_000)
    return page.evaluate("() => (window.benchClock.end - window.benchClock.start) / 1000")


def time_canvas(browser, url: str, n: int) -> CanvasTiming:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(120_000)
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
    page.goto(f"{url}/?n={n}&layout=needles")  # once, so the server's layout is cached as a projection would be
    wait_drawn(page, timeout_s=600)
    frames.clear()
    page.goto(f"{url}/?n={n}&layout=needles")
    wait_drawn(page, timeout_s=600)
    # from the navigation (the page clock's origin) until the points were drawn
    open_s, open_draw_s, largest = map_state(page)["lastDraw"]["ended"] / 1000, _in_browser_s(page), max(frames)
    frames.clear()
    before = draws(page)
    highlight_s = _timed(page, "keydown", f"Number(maps[0].dataset.draws) > {before}",
                         lambda: fill(page, "Highlight texts containing", "point 77777"))
    highlight_draw_s, highlight_largest = _in_browser_s(page), max(frames)
    row = n - NEEDLES // 2  # a needle, apart from the packed square, so the pointer finds this very row
    at = screen_position(page, row)
    hover_s = _timed(page, "mousemove", f"maps[0].querySelector('.tooltip').textContent.includes('point {row}')",
                     lambda: page.mouse.move(*at))
    page.get_by_role("button", name="Lasso").click()
    lasso_s = _timed(page, "pointerup", "/Selected [1-9]/.test(document.body.innerText)", lambda: drag(page, LASSO))
    box = page.locator(".explorer-map canvas.points").bounding_box()
    page.close()
    width, height = int(box["width"]), int(box["height"])
    raw = raw_frame_s(browser, layout(n, "needles")[0], point_size(n), width, height)
    return CanvasTiming(open_s, open_draw_s, largest / 2**20, highlight_s, highlight_draw_s,
                        highlight_largest / 2**20, hover_s, lasso_s, raw, width, height)


def bench_map_canvas(rows: list[Row]) -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="explorer-canvas-"))
    server = start_server(folder / "server.log", script=ROOT / "tests" / "browser" / "canvas_app.py",
                          env={"PYTHONPATH": str(ROOT)})
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            timings = {n: time_canvas(browser, server.url, n) for n in SIZES}
            browser.close()
    finally:
        server.stop()
    for n, t in timings.items():
        what = f"Map canvas, {n:,} points (headless Chromium, software WebGL, {t.width}×{t.height} px)"
        raw = f"raw WebGL: one frame of the same points, {t.raw_frame_s:.2f} s"
        figures = {"points": n, "raw_frame_s": t.raw_frame_s}
        rows.append(Row(f"{what}: page opened → every point drawn (in the browser: points arrived → drawn)",
                        f"{t.open_s:.2f} s ({t.open_draw_s:.2f} s)", raw,
                        f"{t.open_draw_s / t.raw_frame_s:.1f}× in the browser, {t.open_s / t.raw_frame_s:.1f}× in all "
                        "(goal: ≤ 2×)", raw={**figures, "open_s": t.open_s, "open_draw_s": t.open_draw_s}))
        rows.append(Row(f"{what}: highlight typed → redrawn (in the browser: bitmask arrived → redrawn)",
                        f"{t.highlight_s:.2f} s ({t.highlight_draw_s:.2f} s)", raw,
                        f"{t.highlight_draw_s / t.raw_frame_s:.1f}× in the browser, "
                        f"{t.highlight_s / t.raw_frame_s:.1f}× in all (goal: ≤ 2×)",
                        raw={**figures, "highlight_s": t.highlight_s, "highlight_draw_s": t.highlight_draw_s}))
        rows.append(Row(f"{what}: largest websocket message, opening / highlighting",
                        f"{t.largest_message_mb:.1f} MB / {t.highlight_message_mb:.2f} MB",
                        f"the positions alone, float32: {8 * n / 2**20:.1f} MB", "goal: ≤ 16 MB",
                        raw={**figures, "open_mb": t.largest_message_mb, "highlight_mb": t.highlight_message_mb}))
        rows.append(Row(f"{what}: hover → the row's text shown; lasso → the selected rows back in Python",
                        f"{t.hover_s:.2f} s; {t.lasso_s:.2f} s", raw, "goal: ≤ 0.3 s; ≤ 1 s",
                        raw={**figures, "hover_s": t.hover_s, "lasso_s": t.lasso_s}))
