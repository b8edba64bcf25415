"""The Map page's two sets in Chromium: STS-B's news against its forum texts on one map, each set its own colour in
the legend and the drawn pixels, and below it the numbers, the clusters the new set over-represents with their
keywords (core.evaluation.set_drift's, for the same texts) and the AUC by layer; axe-core finds no violation."""

from __future__ import annotations

import pytest

from core.data.stsb import stsb_set
from core.evaluation.set_drift import drift_sets
from core.models.loading import load_model
from core.settings import Settings
from tests.browser.canvas import MAP, wait_drawn
from tests.browser.harness import check_and_shoot, wait_for_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SIZE = 150


def test_two_sets_are_coloured_apart_and_the_clusters_the_new_set_over_represents_are_listed(page, server):
    page.goto(f"{server.url}/map?map_source=sets&map_set_size={SIZE}&map_set_reference=news&map_set_new=forums")
    wait_drawn(page, timeout_s=300)
    page.get_by_text("The new set over-represents").wait_for(timeout=300_000)
    page.locator(".js-plotly-plot").last.wait_for(timeout=300_000)  # the AUC by layer
    wait_for_idle(page, 300)
    legend = page.locator(f"{MAP} .legend-item")
    assert sorted(legend.all_inner_texts()) == [f"new\n{SIZE}", f"reference\n{SIZE}"]
    report = drift_sets(load_model("all-MiniLM-L6-v2", "cpu"), stsb_set("news", SIZE), stsb_set("forums", SIZE),
                        Settings(model_id="all-MiniLM-L6-v2"))
    over = report.represented(more=True)
    assert len(over)
    for keywords in over["keywords"]:
        page.get_by_text(keywords, exact=True).first.wait_for(timeout=10_000)
    check_and_shoot(page, "map-two-sets")
