"""The two model families beside dense ones, as a new user meets them in a real browser: a sparse model's terms and
a cell's shared terms; a reranker trained in the app, used on Retrieval, and measured against N on Evaluation."""

from __future__ import annotations

import pytest

from tests.browser.harness import check_and_shoot, choose, fill, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser
LONG = 600  # seconds: a first visit embeds the 7,977 STS-B texts, a rerank sweep reads 262 × 50 pairs


def _metric(page, label: str) -> float:
    box = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return float(box.locator("[data-testid='stMetricValue']").inner_text().replace(",", "").rstrip("%"))


def test_a_sparse_models_terms_and_a_cells_shared_terms(page, server):
    open_page(page, server, "model?model=splade-tiny", LONG)
    fill(page, "Text to read as terms", "The bank by the river was flooded.")
    wait_for_idle(page)
    terms = {name: y for trace in plot_data(page, 0) for name, y in [(trace["name"], trace["y"])]}
    assert "bank" in terms["in the text"] and "flood" in terms["added by the model"]
    check_and_shoot(page, "sparse-terms")
    open_page(page, server, "similarity?model=splade-tiny", LONG)
    z = plot_data(page, 0)[0]["z"]
    row, col = 3, 5  # two questions about learning Python (the page opens on the closest pair, about eggs)
    area = page.locator(".js-plotly-plot").first.locator(".nsewdrag").first.bounding_box()
    n = len(z)
    page.mouse.click(area["x"] + (col + 0.5) * area["width"] / n, area["y"] + (row + 0.5) * area["height"] / n)
    wait_for_idle(page)
    assert page.get_by_role("combobox", name="Text A").first.input_value().startswith(f"{row + 1}. ")
    assert _metric(page, "Sum of the shared terms' contributions") == pytest.approx(z[row][col], abs=1e-3)
    check_and_shoot(page, "sparse-similarity-cell")


@pytest.fixture
def reranker_name():
    """The name of the reranker the test trains; it is deleted afterwards, as later tests expect a cache with no
    fine-tuned model (the server shares the test run's cache)."""
    import shutil

    from core.models.catalog import finetuned_dir

    yield "browser-reranker"
    shutil.rmtree(finetuned_dir() / "browser-reranker", ignore_errors=True)


def test_a_new_user_trains_a_reranker_reranks_a_query_and_sees_the_metrics_against_n(page, server, reranker_name):
    open_page(page, server, "finetune", LONG)
    page.get_by_text("a cross-encoder reranker", exact=False).first.click()
    wait_for_idle(page)
    choose(page, "Start from", "paraphrase-MiniLM-L3-v2")  # three layers: Evaluation reads 14,600 pairs with it
    wait_for_idle(page)
    fill(page, "Name of the new model", reranker_name)
    steps = page.get_by_role("spinbutton", name="Max steps (0 = all epochs)").first
    steps.fill("2")
    steps.press("Enter")
    wait_for_idle(page)
    page.get_by_role("button", name="Start training").click()
    page.get_by_text(f"Saved {reranker_name}", exact=False).first.wait_for(timeout=LONG * 1000)
    check_and_shoot(page, "reranker-trained")
    open_page(page, server, "retrieval?ret_rerank_first=BM25&ret_rerank_n=10", LONG)
    page.get_by_text(f"Reranked by {reranker_name}", exact=True).first.wait_for(timeout=LONG * 1000)
    lines = [trace for trace in plot_data(page, page.locator(".js-plotly-plot").count() - 1) if trace["x"] == [0, 1]]
    assert len(lines) == 10
    check_and_shoot(page, "reranker-retrieval")
    open_page(page, server, "evaluation?ev_section=Rerank&ev_rerank_first=BM25", LONG)
    page.get_by_text("STS-B: reading two sentences together", exact=True).first.wait_for(timeout=LONG * 1000)
    wait_for_idle(page, LONG)
    scored = [trace for trace in plot_data(page, 0) if trace["name"] == "recall@1"][0]
    assert [float(x) for x in scored["x"]] == [0, 1, 5, 10, 20, 50]
    check_and_shoot(page, "reranker-evaluation")
