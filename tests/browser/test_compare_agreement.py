"""How far two configurations agree, in a real browser: compare mode's numbers on Similarity and the map (coloured by
each text's neighbours kept in B), and the drift curve of a short fine-tuning run."""

from __future__ import annotations

import pytest

from tests.browser.canvas import wait_drawn
from tests.browser.harness import check_and_shoot, choose, fill, open_page, wait_for_idle

pytestmark = pytest.mark.browser
LONG = 600  # seconds: a first visit embeds corpora; a run measures STS-B and retrieval before and after
RUN_NAME = "l3-drift-browser"


def _metric(page, label: str) -> str:
    return page.locator("[data-testid='stMetric']").filter(has_text=label).first \
        .locator("[data-testid='stMetricValue']").inner_text()


def _numbers(page, k: int) -> dict[str, float]:
    kept = _metric(page, f"Kept in B (overlap@{k})")
    assert kept.endswith("%")
    return {"cka": float(_metric(page, "CKA (linear)")), "kept": float(kept[:-1]) / 100,
            "rsa": float(_metric(page, "RSA (Spearman)")), "procrustes": float(_metric(page, "Procrustes residual"))}


def test_compare_mode_shows_how_far_a_and_b_agree_and_colours_the_map_by_neighbours_kept(page, server):
    open_page(page, server, "similarity?sim_compare=1", LONG)
    numbers = _numbers(page, 4)  # the nine example texts: half of each text's eight others
    assert 0 < numbers["cka"] <= 1 and 0 <= numbers["kept"] <= 1 and 0 <= numbers["procrustes"] <= 2
    check_and_shoot(page, "similarity-compare-agreement")
    open_page(page, server, "map?map_compare=1&map_size=300&map_method=PCA", LONG)
    wait_drawn(page, nth=1)
    numbers = _numbers(page, 10)
    assert 0 < numbers["cka"] < 1 and 0 < numbers["kept"] < 1  # B: the same model's middle layer
    assert page.get_by_text("share of its 10 neighbours kept in B").count() == 0
    page.get_by_text("Colour by each text's neighbours kept in B", exact=True).click()
    wait_for_idle(page, LONG)
    page.get_by_text("share of its 10 neighbours kept in B").first.wait_for()
    page.get_by_text("Texts whose neighbourhood changed most from A to B").wait_for()
    check_and_shoot(page, "map-compare-agreement")


def _drift_traces(page) -> dict[str, dict]:
    """The traces of the chart that holds the drift curve, by name (empty while there is none)."""
    return page.evaluate("""() => {
        for (const plot of document.querySelectorAll('.js-plotly-plot')) {
            const traces = plot._fullData || [];
            if (traces.some(t => t.name === 'CKA with the start'))
                return Object.fromEntries(traces.map(t => [t.name, {x: Array.from(t.x), y: Array.from(t.y)}]));
        }
        return {};
    }""")


def test_a_short_finetuning_run_draws_its_drift_curve(page, server):
    from core.training.finetune import delete_model, finetuned_dir

    open_page(page, server, "finetune", LONG)
    choose(page, "Start from", "paraphrase-MiniLM-L3-v2")
    wait_for_idle(page)
    for label, value in (("Max steps (0 = all epochs)", "4"), ("Batch size", "8")):
        box = page.get_by_role("spinbutton", name=label).first
        box.fill(value)
        box.press("Enter")
        wait_for_idle(page)
    fill(page, "Name of the new model", RUN_NAME)
    wait_for_idle(page)
    try:
        page.get_by_role("button", name="Start training").click()
        page.get_by_text(f"Saved {RUN_NAME}").wait_for(timeout=3 * LONG * 1000)
        wait_for_idle(page, LONG)
        traces = _drift_traces(page)
        assert set(traces) == {"CKA with the start", "neighbours kept (overlap@10)", "STS-B Spearman (probe pairs)"}
        cka = traces["CKA with the start"]
        assert cka["x"] == [0, 1, 2, 3, 4] and cka["y"][0] == pytest.approx(1.0)
        assert 0 < min(cka["y"]) <= 1 and traces["neighbours kept (overlap@10)"]["y"][0] == 1
        page.get_by_text("Sentences whose neighbours changed most").wait_for()
        check_and_shoot(page, "finetune-drift")
    finally:
        if (finetuned_dir() / RUN_NAME).exists():  # the other browser tests open Fine-tune with no fine-tuned model
            delete_model(RUN_NAME)
