"""Each page's main interaction in a real browser, as a person would do it."""

from __future__ import annotations

import re

import pytest

from tests.browser.harness import check_and_shoot, choose, fill, open_page, wait_for_idle

pytestmark = pytest.mark.browser
LONG = 600  # seconds: the first visit embeds the 7,977 STS-B corpus texts on a shared CPU


def _facts(page) -> str:
    return page.locator("[data-testid='stTable']").first.inner_text()


def test_home_shows_the_model_facts_and_follows_the_sidebar(page, server):
    open_page(page, server, "")
    assert "384" in _facts(page) and "all-MiniLM-L6-v2" in _facts(page)
    choose(page, "Model", "paraphrase-MiniLM-L3-v2")
    wait_for_idle(page)
    page.wait_for_function("() => document.querySelector(\"[data-testid='stTable']\").innerText"
                           ".includes('paraphrase-MiniLM-L3-v2')")
    assert "model=paraphrase-MiniLM-L3-v2" in page.url
    check_and_shoot(page, "home", chart=False)


def _tick_texts(page) -> str:
    return " | ".join(page.locator(".js-plotly-plot .xtick text, .js-plotly-plot .ytick text").all_text_contents())


def test_similarity_redraws_the_heatmap_for_edited_texts(page, server):
    open_page(page, server, "similarity")
    check_and_shoot(page, "similarity-open")
    fill(page, "Texts, one per line", "A dog runs in the park.\nA puppy plays outside.\nInterest rates rose again.")
    wait_for_idle(page)
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .ytick text')]"
                           ".some(t => t.textContent.includes('Interest rates'))")
    assert "A puppy plays outside." in _tick_texts(page)
    check_and_shoot(page, "similarity")


def test_layers_clicking_a_token_chip_redraws_the_drift(page, server):
    open_page(page, server, "layers")
    chips = page.get_by_role("radiogroup", name="Sentence 1").get_by_role("radio")
    assert chips.count() > 3
    chip = chips.filter(has_text="picnic").first
    chip.click()
    wait_for_idle(page)
    assert chip.get_attribute("aria-checked") == "true"
    check_and_shoot(page, "layers")


def test_model_tokenizer_playground_follows_typing(page, server):
    open_page(page, server, "model")
    fill(page, "Text to tokenize", "Tokenizers split unbelievably long words.")
    wait_for_idle(page)
    page.locator("[data-testid='stCode']").filter(has_text="unbelievably").first.wait_for()
    check_and_shoot(page, "model", chart=False)


def test_retrieval_answers_a_typed_query(page, server):
    open_page(page, server, "retrieval", LONG)
    fill(page, "Query", "A woman is slicing an onion.")
    wait_for_idle(page, LONG)
    page.locator(".js-plotly-plot").get_by_text(re.compile("onion", re.IGNORECASE)).first.wait_for(state="attached")
    check_and_shoot(page, "retrieval")


def test_evaluation_runs_the_sts_benchmark(page, server):
    open_page(page, server, "evaluation", LONG)
    check_and_shoot(page, "evaluation-retrieval")
    page.get_by_text("STS correlation", exact=True).first.click()
    wait_for_idle(page, LONG)
    page.get_by_text("Spearman", exact=True).first.wait_for()
    check_and_shoot(page, "evaluation")


def test_map_opens_and_places_a_search(page, server):
    open_page(page, server, "map", LONG)
    page.locator(".js-plotly-plot canvas").first.wait_for(state="attached")  # the map is drawn with WebGL
    query = "Two dogs are playing in the snow."
    fill(page, "Query", query)
    wait_for_idle(page, LONG)  # the query's neighbours are a canvas table, so the check is the kept input
    assert page.get_by_role("textbox", name="Query").input_value() == query
    assert page.locator(".js-plotly-plot canvas").count() > 0
    check_and_shoot(page, "map")


def test_finetune_opens_ready_to_train(page, server):
    open_page(page, server, "finetune", LONG)
    assert page.get_by_role("button", name="Start training").is_enabled()
    check_and_shoot(page, "finetune")  # the example heatmap of the starting model
