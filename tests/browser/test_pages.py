"""Each page's main interaction in a real browser, as a person would do it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import check_and_shoot, open_page
from tests.browser.harness import choose, wait_for_idle

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
