"""Defects a new user met, each tried again in a real browser (they are frontend behaviour AppTest cannot see)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.browser.canvas import draws, hover, isolated_row, map_state, tooltip, wait_drawn
from tests.browser.harness import check_and_shoot, choose, fill, load, open_page, wait_for_idle

pytestmark = pytest.mark.browser
LONG = 600


@pytest.fixture(autouse=True)
def quick_failures(page):
    """A control that is not there fails in two minutes, not ten (long waits for the app give their own limit)."""
    page.set_default_timeout(120_000)


PASTED = "Paste%20texts"  # Retrieval's corpus source, as a link names it
CORPUS = b"Bake bread at home with flour, water, salt and yeast.\nThe stock market fell sharply today.\n" \
         b"A cat sleeps on the warm windowsill.\nHow long should dough rise before baking?\n"


def _value(page, role: str, label: str) -> str:
    return page.get_by_role(role, name=label).first.input_value(timeout=30_000)


def test_retrieval_keeps_its_query_k_and_threshold_when_the_corpus_changes(page, server):
    open_page(page, server, f"retrieval?ret_source={PASTED}", LONG)  # a small corpus: STS-B's is test_pages'
    fill(page, "Query", "How do I bake bread?")
    wait_for_idle(page, LONG)
    top_k = page.get_by_role("spinbutton", name="Top k")
    top_k.fill("3", timeout=30_000)
    top_k.press("Enter")
    wait_for_idle(page, LONG)
    page.get_by_text("Upload a file", exact=True).first.click()
    wait_for_idle(page)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(
        files=[{"name": "corpus.txt", "mimeType": "text/plain", "buffer": CORPUS}])
    wait_for_idle(page, LONG)
    assert (_value(page, "textbox", "Query"), _value(page, "spinbutton", "Top k")) == ("How do I bake bread?", "3")
    page.get_by_text("Top 3 texts for the query").first.wait_for()
    table = page.locator("[data-testid='stTable']").first.inner_text()
    assert "Bake bread at home with flour, water, salt and yeast." in table
    check_and_shoot(page, "defect-retrieval-inputs")


def test_retrieval_shows_long_texts_in_full(page, server):
    long = ("A very long sentence about baking sourdough bread at home, with a starter fed every day, a slow rise "
            "overnight in the fridge, and a hot oven with steam for the crust, written to be longer than any "
            "table column so that a cut would show.")
    open_page(page, server, f"retrieval?ret_source={PASTED}", LONG)
    fill(page, "Texts, one a line", f"{long}\nThe stock market fell sharply today.")
    wait_for_idle(page, LONG)
    fill(page, "Query", "sourdough baking")
    wait_for_idle(page, LONG)
    tables = " ".join(page.locator("[data-testid='stTable']").all_inner_texts())
    assert long in " ".join(tables.split())  # the whole text, wrapped
    check_and_shoot(page, "defect-retrieval-long-texts")


def _picker(page, label: str) -> str:
    """What a select box shows now."""
    return _value(page, "combobox", label)


def test_layers_pickers_show_the_sentences_typed_now(page, server):
    open_page(page, server, "layers")
    page.get_by_role("tab", name="Token alignment").click()
    wait_for_idle(page)
    assert "S1: We had a picnic" in _picker(page, "Sentence A")
    fill(page, "Sentences, one per line (2 to 8)", "Cats chase mice in the barn.\nDogs chase cats in the yard.")
    wait_for_idle(page)
    assert "S1: Cats chase mice" in _picker(page, "Sentence A")
    assert "S2: Dogs chase cats" in _picker(page, "Sentence B")
    check_and_shoot(page, "defect-layers-pickers")


def test_a_copied_link_opens_the_same_similarity_view_in_a_fresh_browser(page, server, chromium):
    from tests.browser.harness import VIEWPORT, choose

    open_page(page, server, "similarity")
    choose(page, "Example set", "One word, several senses (bank)")
    wait_for_idle(page)
    page.get_by_text("Group similar texts (hierarchical clustering)", exact=True).click()
    wait_for_idle(page)
    page.get_by_text("Euclidean distance", exact=True).click()
    wait_for_idle(page)
    link = page.url
    fresh = chromium.new_context(viewport=VIEWPORT)
    try:
        other = fresh.new_page()
        load(other, link)
        texts = other.get_by_role("textbox", name="Texts, one per line").input_value(timeout=30_000)
        assert texts.startswith("She sat on the bank of the river")
        assert other.get_by_role("switch", name="Group similar texts (hierarchical clustering)").is_checked()
        assert other.get_by_role("radio", name="Euclidean distance").is_checked()
        check_and_shoot(other, "defect-similarity-link")
    finally:
        fresh.close()


def _available_models() -> list[str]:
    from core.models.catalog import catalog
    from core.models.sources import availability

    return [entry.id for entry in catalog() if entry.source != "finetuned" and availability(entry.id).available]


@pytest.mark.parametrize("model_id", _available_models())
@pytest.mark.parametrize("path", ["layers", "similarity"])
def test_every_available_catalog_model_loads_on_layers_and_similarity(page, server, model_id, path):
    open_page(page, server, f"{path}?model={model_id}", LONG)
    assert page.get_by_role("combobox", name="Model").first.input_value() != ""
    caption = page.locator("[data-testid='stSidebar'] [data-testid='stCaptionContainer']").filter(
        has_text=f"{model_id}:").first
    caption.wait_for(timeout=60_000)
    assert not page.locator("[data-testid='stSidebar'] [data-testid='stAlertContentError']").count()
    page.locator(".js-plotly-plot").first.wait_for(state="attached", timeout=60_000)
    check_and_shoot(page, f"models-{path}-{model_id}")


def test_a_click_on_a_heatmap_cell_explains_that_pair_with_the_sum_equal_to_the_cell(page, server):
    from tests.browser.harness import plot_data

    open_page(page, server, "similarity")
    z = plot_data(page, 0)[0]["z"]
    row, col = 4, 6  # "How should a beginner start…" and "How long does it take to boil an egg?"
    area = page.locator(".js-plotly-plot").first.locator(".nsewdrag").first.bounding_box()
    n = len(z)
    page.mouse.click(area["x"] + (col + 0.5) * area["width"] / n, area["y"] + (row + 0.5) * area["height"] / n)
    wait_for_idle(page)
    assert _picker(page, "Text A").startswith(f"{row + 1}. ") and _picker(page, "Text B").startswith(f"{col + 1}. ")
    metric = page.locator("[data-testid='stMetric']").filter(has_text="Sum of the token-pair contributions").first
    assert float(metric.locator("[data-testid='stMetricValue']").inner_text()) == pytest.approx(z[row][col], abs=1e-4)
    check_and_shoot(page, "explanation-click")


def test_a_lasso_on_the_default_map_lists_the_texts_it_caught(page, server):
    open_page(page, server, "map", LONG)
    wait_drawn(page)
    plot = page.locator(".explorer-map canvas.points").first
    plot.scroll_into_view_if_needed()  # the mouse acts on what the window shows
    page.get_by_role("button", name="Lasso").click()
    area = plot.bounding_box()
    x, y, w, h = area["x"], area["y"], area["width"], area["height"]
    page.mouse.move(x + 0.2 * w, y + 0.2 * h)
    page.mouse.down()
    for fx, fy in ((0.8, 0.2), (0.8, 0.8), (0.2, 0.8), (0.2, 0.21)):  # a lasso around the middle of the map
        page.mouse.move(x + fx * w, y + fy * h, steps=8)
    page.mouse.up()
    page.get_by_text("each with its labels and its nearest other text").wait_for()  # the rerun the lasso asked for
    wait_for_idle(page, LONG)
    assert page.get_by_text("Keywords of the selection", exact=False).count() == 1
    check_and_shoot(page, "map-lasso")


def test_a_vectors_file_of_100000_points_is_drawn_whole(page, server, tmp_path):
    points = 100_000
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(12, 8)) * 4
    np.save(tmp_path / "vectors.npy", (centres[np.arange(points) % 12] + rng.normal(size=(points, 8)))
            .astype(np.float32))
    (tmp_path / "texts.txt").write_text("".join(f"text {i} of topic {i % 12}\n" for i in range(points)))
    open_page(page, server, "map?map_source=vectors")
    page.locator("input[type=file]").first.set_input_files([tmp_path / "vectors.npy", tmp_path / "texts.txt"])
    wait_for_idle(page, LONG)
    wait_drawn(page)
    assert map_state(page)["n"] == points
    assert page.locator("[data-testid='stMetric']").filter(has_text="Points").first.inner_text().endswith("100,000")
    check_and_shoot(page, "map-100000")


def test_hover_after_a_change_of_colouring_shows_the_new_colouring(page, server):
    open_page(page, server, "map", LONG)
    wait_drawn(page)
    row = isolated_row(page)
    hover(page, row)
    tooltip(page).filter(has_text=f"#{row} · genre: ").wait_for(timeout=60_000)
    before = draws(page)
    choose(page, "Colour by", "text length")
    wait_for_idle(page, LONG)
    wait_drawn(page, after=before)
    hover(page, row)
    tooltip(page).filter(has_text=f"#{row} · characters: ").wait_for(timeout=30_000)  # not the cached genre
    check_and_shoot(page, "map-hover-after-colouring")
