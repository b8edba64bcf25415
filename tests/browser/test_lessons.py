"""A student walks three lessons: each button opens the right page with the lesson's texts, and the page shows
what the lesson is about."""

from __future__ import annotations

import pytest

from core.lessons.lessons import BANK, PAIR, WEATHER
from tests.browser.harness import check_and_shoot, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser


def _open_lesson(page, server, title: str, button: str) -> None:
    open_page(page, server, "lessons")
    page.get_by_text(title, exact=True).first.click()
    page.get_by_role("button", name=button).first.click()
    wait_for_idle(page)


def test_three_lessons_open_their_pages_with_their_texts(page, server):
    page.set_default_timeout(120_000)
    _open_lesson(page, server, "3. One word, several senses", "Open Layers")
    assert "/layers" in page.url
    assert page.get_by_role("textbox", name="Sentences, one per line (2 to 8)").input_value() == "\n".join(BANK)
    assert sorted(trace["name"] for trace in plot_data(page, 0) if trace["name"].startswith("S")) == [
        "S1 · S2", "S1 · S3", "S2 · S3"]  # the "bank" of each sentence, pair by pair
    check_and_shoot(page, "lesson-3")

    _open_lesson(page, server, "4. Synonyms and antonyms in one frame", "Open Similarity")
    assert page.get_by_role("textbox", name="Texts, one per line").input_value() == "\n".join(WEATHER)
    assert len(plot_data(page, 0)[0]["z"]) == 3
    check_and_shoot(page, "lesson-4")

    _open_lesson(page, server, "12. Why similar", "Open Similarity")
    assert page.get_by_role("textbox", name="Texts, one per line").input_value() == "\n".join(PAIR)
    metric = page.locator("[data-testid='stMetric']").filter(has_text="Sum of the token-pair contributions").first
    cosine = page.locator("[data-testid='stMetric']").filter(has_text="Cosine of the pair").first
    assert metric.locator("[data-testid='stMetricValue']").inner_text() == \
        cosine.locator("[data-testid='stMetricValue']").inner_text()
    check_and_shoot(page, "lesson-12")
