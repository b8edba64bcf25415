"""Each page's main interaction in a real browser, as a person would do it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import check_and_shoot, open_page
from tests.browser.harness import choose, fill, wait_for_idle

pytestmark = pytest.mark.browser


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
