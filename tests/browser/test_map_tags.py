"""Tags on the Map page in Chromium: a lasso drawn with the mouse, named with "Tag the selection", and the CSV the
page downloads has that tag's column true for exactly the rows whose drawn positions lie inside the lasso; after the
server restarts, on the same cache folder, the tag is still there."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.path import Path

from tests.browser.canvas import MAP, drag, screen_positions, wait_drawn
from tests.browser.harness import SHOTS, download, fill, start_server, wait_for_idle

pytestmark = pytest.mark.browser
LASSO = [(0.25, 0.2), (0.8, 0.3), (0.55, 0.85), (0.2, 0.65), (0.25, 0.21)]  # fractions of the canvas
DOWNLOAD = "Download the rows with labels and tags (CSV)"


def open_map(page, url: str) -> None:
    page.goto(f"{url}/map?map_size=300")
    wait_drawn(page, timeout_s=300)
    wait_for_idle(page, 300)


def downloaded(page) -> pd.DataFrame:
    return pd.read_csv(download(page, DOWNLOAD), dtype={"row_id": str})


def test_a_lasso_tagged_on_the_map_is_its_column_in_the_csv_and_outlasts_a_restart(chromium, tmp_path):
    env = {"EXPLORER_CACHE_DIR": str(tmp_path / "cache")}  # the tags' folder, the same across the restart
    app = start_server(SHOTS / "server-tags.log", env=env)
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(300_000)
    try:
        open_map(page, app.url)
        page.locator(MAP).get_by_role("button", name="Lasso", exact=True).click()
        box = page.locator(f"{MAP} canvas.points").bounding_box()
        xy = screen_positions(page)  # where the points were when the lasso was drawn round them
        drag(page, LASSO)
        page.get_by_text("Tag name").wait_for()
        fill(page, "Tag name", "lassoed")
        wait_for_idle(page, 120)
        page.get_by_role("button", name="Tag the selection").click()
        page.get_by_text("tagged", exact=False).filter(has_text="“lassoed”").first.wait_for()
        wait_for_idle(page, 120)
        table = downloaded(page)
        shape = Path([(box["x"] + fx * box["width"], box["y"] + fy * box["height"]) for fx, fy in LASSO])
        # 3 px inside the edge and 3 px outside it: a point on the edge may go either way
        inside, near = sorted((set(np.flatnonzero(shape.contains_points(xy, radius=r)).tolist()) for r in (-3, 3)),
                              key=len)
        tagged = set(np.flatnonzero(table["tag_lassoed"].to_numpy()).tolist())
        assert len(inside) > 20 and inside <= tagged <= near
        assert list(table.columns[:2]) == ["row_id", "text"] and {"x", "y"} <= set(table.columns)
        before = table.set_index("row_id")["tag_lassoed"]
        app.stop()
        assert "Traceback" not in app.log()

        app = start_server(SHOTS / "server-tags.log", env=env)
        open_map(page, app.url)
        after = downloaded(page).set_index("row_id")["tag_lassoed"]
        pd.testing.assert_series_equal(after.sort_index(), before.sort_index())
    finally:
        context.close()
        app.stop()
    assert "Traceback" not in app.log()
