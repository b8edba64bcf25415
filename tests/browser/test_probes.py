"""The page "What each layer knows" in Chromium: the probe of STS-B's genres drawn at every layer beside the
architecture untrained; the texts whose labels look wrong tagged in one click; the link the page gives opens the
Embedding map on a sample that holds them, coloured by the tag, and the map's CSV has the tag true for exactly as many
rows as were tagged; the server logs no fork all along (tests/browser/conftest.py)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from tests.browser.canvas import wait_drawn
from tests.browser.harness import SHOTS, check_and_shoot, download, plot_data, start_server, wait_for_idle

pytestmark = pytest.mark.browser
MISLABEL = "possible mislabel"


def test_mislabels_tagged_on_the_probes_page_are_found_on_the_map(chromium, tmp_path):
    app = start_server(SHOTS / "server-probes.log", env={"EXPLORER_CACHE_DIR": str(tmp_path / "cache")})
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(600_000)
    try:
        page.goto(f"{app.url}/probes?probe_size=150")
        page.get_by_text("Texts that look mislabelled").wait_for()
        wait_for_idle(page, 300)
        names = [trace["name"] for trace in plot_data(page, 0)]
        assert "untrained (random weights)" in names and "labels shuffled (chance)" in names
        check_and_shoot(page, "probes")
        page.get_by_role("button", name=f"Tag them all “{MISLABEL}”").click()
        said = page.get_by_text("The tag is kept by the texts themselves", exact=False).first
        said.wait_for()
        tagged = int(re.search(r"Tagged ([\d,]+) texts?", said.inner_text()).group(1).replace(",", ""))
        page.get_by_role("link", name=re.compile("See them on the Embedding map")).click()
        wait_drawn(page, timeout_s=300)
        wait_for_idle(page, 300)
        assert "map_colour=tag" in page.url
        table = pd.read_csv(download(page, "Download the rows with labels and tags (CSV)"), dtype={"row_id": str})
        assert tagged > 0 and int(table[f"tag_{MISLABEL}"].sum()) == tagged
        check_and_shoot(page, "probes-tag-on-map", chart=False)
    finally:
        context.close()
        app.stop()
    assert "Traceback" not in app.log()
    from core.threads import FORK_LINE

    assert FORK_LINE not in app.log()
