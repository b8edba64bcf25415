"""A late-interaction model on Similarity in a real browser: a click on a cell of the MaxSim matrix opens that
query's alignment with the document below it, the shares adding up to the cell."""

from __future__ import annotations

import pytest

from tests.browser.harness import check_and_shoot, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser


def _metric(page, label: str) -> float:
    box = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return float(box.locator("[data-testid='stMetricValue']").inner_text().replace(",", ""))


def test_a_click_on_a_maxsim_cell_opens_its_alignment(page, server, late_folders):
    open_page(page, server, f"similarity?model={late_folders['colbert']}")
    z = plot_data(page, 0)[0]["z"]
    assert z[1][4] != pytest.approx(z[4][1], abs=1e-3)  # not symmetric
    row, col = 4, 1  # a question about learning Python as the query, one about passwords as the document
    area = page.locator(".js-plotly-plot").first.locator(".nsewdrag").first.bounding_box()
    n = len(z)
    page.mouse.click(area["x"] + (col + 0.5) * area["width"] / n, area["y"] + (row + 0.5) * area["height"] / n)
    wait_for_idle(page)
    assert page.get_by_role("combobox", name="Text A (the query: a row)").first.input_value().startswith(f"{row + 1}. ")
    assert page.get_by_role("combobox", name="Text B (the document: a column)").first.input_value().startswith(
        f"{col + 1}. ")
    assert _metric(page, "MaxSim of A for B") == pytest.approx(z[row][col], abs=1e-3)
    parts = sum(_metric(page, name) for name in ("Share of A's own tokens", "Share of the query expansion",
                                                 "Share of the prompt or marker"))
    assert parts == pytest.approx(z[row][col], abs=1e-3)
    shares = [trace for trace in plot_data(page, 1) if trace["name"] in ("the text's tokens", "query expansion",
                                                                          "prompt or marker")]
    assert sum(sum(trace["x"]) for trace in shares) == pytest.approx(z[row][col], abs=1e-3)
    check_and_shoot(page, "late-similarity-alignment")
