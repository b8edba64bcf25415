"""The example notebook in a real JupyterLab (started on loopback) in Chromium: every cell run as Run All does, the map
widget's points drawn where the coordinates put them, a hover answered with the row's text, a lasso drawn with the
mouse, and Python's selection (read back from the kernel) exactly the
rows whose drawn positions lie inside it; a highlight set from Python seen in the pixels; the observer the notebook
registered fired; axe-core on the widget's output; and the lassoed rows tagged, that tag kept across a kernel
restart."""

from __future__ import annotations

import ast
import shutil
import time

import numpy as np
import pytest
from matplotlib.path import Path

from core.data.stsb import stsb_sample
from tests.browser.accessibility import describe
from tests.browser.canvas import (
    MAP,
    canvas_xy,
    drag,
    draws,
    hover,
    isolated_row,
    pixels,
    screen_positions,
    tooltip,
    wait_drawn,
)
from tests.browser.harness import ROOT, SHOTS
from tests.browser.jupyter import PANEL, faults, open_notebook, run_all, run_python, start_lab
from tests.extras import extra_module

pytestmark = pytest.mark.browser
NOTEBOOK = ROOT / "notebooks" / "explore.ipynb"
LASSO = [(0.3, 0.25), (0.75, 0.3), (0.6, 0.8), (0.25, 0.7), (0.3, 0.26)]  # fractions of the canvas


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    extra_module("jupyterlab", "The notebook extra is missing: run `make notebook-extra`")
    folder = tmp_path_factory.mktemp("lab")
    shutil.copy(NOTEBOOK, folder)
    server = start_lab(folder, SHOTS / "jupyterlab.log")
    yield server
    server.stop()
    found = faults(server.log())
    assert not found, found[0][-3000:]


def python_value(page, expression: str):
    return ast.literal_eval(run_python(page, f"print(repr({expression}))").strip())


def until(check, timeout_s: float = 30):
    deadline = time.time() + timeout_s
    while not (found := check()):
        assert time.time() < deadline, "not in time"
        time.sleep(0.2)
    return found


def colours_at(page, rows) -> np.ndarray:
    """The drawn colour (RGB, on white) at each row's centre: its darkest pixel of the 3 x 3 there."""
    rgb = pixels(page).astype(int)
    xy = np.rint(canvas_xy(page, rows)).astype(int)
    return np.array([min((rgb[y + dy, x + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)), key=sum) for x, y in xy])


def saturated(colours: np.ndarray) -> np.ndarray:
    return colours.max(axis=1) - colours.min(axis=1) > 60


def widget_violations(page) -> list[dict]:
    """axe-core's WCAG 2 A/AA violations within the map widget's output element (its shadow root included)."""
    from tests.browser.accessibility import AXE_JS, TAGS

    if page.evaluate("() => typeof window.axe") == "undefined":
        page.add_script_tag(path=str(AXE_JS))
    return page.evaluate("""(tags) => {
        const host = [...document.querySelectorAll('.jp-OutputArea-output *')]
            .find((el) => el.shadowRoot?.querySelector('.explorer-map'));
        return axe.run(host.closest('.jp-OutputArea-output'), {runOnly: {type: 'tag', values: tags}})
            .then((result) => result.violations); }""", list(TAGS))


def test_the_example_notebook_draws_its_map_and_a_lasso_selects_those_rows_in_python(page, lab):
    page.set_default_timeout(300_000)
    open_notebook(page, lab, "explore.ipynb")
    run_all(page)
    wait_drawn(page)
    texts = stsb_sample(1_000)["text"]
    assert python_value(page, "m.selection.index.tolist()") == [0, 1, 2]  # the notebook's last cell
    before = draws(page)
    run_python(page, "m.highlight(None); m.selection = []")
    wait_drawn(page, after=before)
    n = len(texts)
    assert saturated(colours_at(page, range(n))).mean() > 0.99  # every point drawn in its genre's colour
    labels = "(el) => el.mapCanvas.data.labels.length"
    until(lambda: page.locator(MAP).first.evaluate(labels) > 0)  # asked for once the points were drawn
    assert page.locator(MAP).first.evaluate(labels) == python_value(page, "len(m.view['labels'])")
    assert draws(page) == before + 1  # the labels were painted over the points, which were not drawn again
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(MAP).first.screenshot(path=str(SHOTS / "notebook-map.png"))

    # the points are drawn where the map's coordinates put them: one scale on both axes, y up
    coords = np.array(python_value(page, "m._points.coords.tolist()"))
    xy = screen_positions(page)
    design = np.column_stack([coords, np.ones(n)])
    fit, *_ = np.linalg.lstsq(design, xy, rcond=None)
    assert np.abs(design @ fit - xy).max() < 0.5
    assert fit[0, 0] == pytest.approx(-fit[1, 1], rel=1e-3) and abs(fit[1, 0]) + abs(fit[0, 1]) < 1e-3 * fit[0, 0]

    row = isolated_row(page)
    hover(page, row)  # its text asked of Python
    tooltip(page).filter(has_text=texts[row]).wait_for(timeout=30_000)

    page.locator(MAP).get_by_role("button", name="Lasso", exact=True).click()
    drag(page, LASSO)
    got = set(until(lambda: python_value(page, "m.selection.index.tolist()")))
    box = page.locator(f"{MAP} canvas.points").bounding_box()
    shape = Path([(box["x"] + fx * box["width"], box["y"] + fy * box["height"]) for fx, fy in LASSO])
    # 3 px inside the edge and 3 px outside it (the sign of matplotlib's radius follows the path's orientation): a
    # point on the edge may go either way
    inside, near = sorted((set(np.flatnonzero(shape.contains_points(xy, radius=r)).tolist()) for r in (-3, 3)),
                          key=len)
    assert len(inside) > 100 and inside <= got <= near
    assert python_value(page, "sizes[-1]") == len(got)  # the notebook's observer fired
    selected = python_value(page, "m.selection.reset_index().to_dict('list')")
    assert selected["text"] == [texts[i] for i in selected["row"]]
    drawn = "(el) => Array.from(el.mapCanvas.plot.get('selectedPoints')).sort((a, b) => a - b)"
    until(lambda: set(page.locator(MAP).first.evaluate(drawn)) == got)  # and drawn as Python has it

    run_python(page, "m.selection = []")
    until(lambda: page.locator(MAP).first.evaluate(drawn) == [])
    before = draws(page)
    lit = np.flatnonzero(texts.str.contains("guitar", case=False, regex=False)).tolist()
    assert python_value(page, 'm.highlight("guitar")') == len(lit) > 0
    wait_drawn(page, after=before)
    rest = [i for i in range(0, n, 7) if i not in lit]
    assert saturated(colours_at(page, lit)).all()
    dimmed = colours_at(page, rest)
    assert (~saturated(dimmed)).mean() > 0.95 and np.median(dimmed.min(axis=1)) > 200  # pale grey
    page.locator(MAP).first.screenshot(path=str(SHOTS / "notebook-map-highlight.png"))

    found = widget_violations(page)
    assert not found, f"axe-core found {len(found)} WCAG 2 A/AA violation(s):\n{describe(found)}"

    # the lassoed rows tagged from Python are that tag's column of m.tags, and still are after the kernel restarts
    run_python(page, f"m.selection = {sorted(got)}; m.tag('lassoed')")
    tagged = "m.tags.index[m.tags['tag_lassoed']].tolist()"
    assert set(python_value(page, tagged)) == got
    page.evaluate(f"async () => {{ {PANEL} await panel.sessionContext.session.kernel.restart(); }}")
    run_all(page)
    assert set(python_value(page, tagged)) == got


CLIENT_LEFT_LOG = """[I 2026-11-27 15:25:22.224 ServerApp] Kernel shutdown: 4235d18f
Task exception was never retrieved
future: <Task finished name='Task-88' coro=<...wrapper() done> exception=WebSocketClosedError()>
Traceback (most recent call last):
  File "tornado/websocket.py", line 1140, in wrapper
    await fut
tornado.iostream.StreamClosedError: Stream is closed

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "tornado/websocket.py", line 1142, in wrapper
    raise WebSocketClosedError()
tornado.websocket.WebSocketClosedError
"""
SERVER_FAULT = """[E 2026-11-27 15:25:23.001 ServerApp] Uncaught exception GET /api/contents
    Traceback (most recent call last):
      File "jupyter_server/base/handlers.py", line 700, in get
    KeyError: 'path'
[I 2026-11-27 15:25:23.002 ServerApp] Starting buffering for 4235d18f
"""


def test_a_browser_leaving_is_not_a_fault_of_the_lab_server_but_any_other_traceback_is():
    assert faults(CLIENT_LEFT_LOG) == []
    assert len(faults(CLIENT_LEFT_LOG + SERVER_FAULT)) == 1 and "KeyError" in faults(SERVER_FAULT)[0]
    assert len(faults(SERVER_FAULT + CLIENT_LEFT_LOG)) == 1
