"""A student walks the lessons: a lesson's button opens the exact view it describes (its texts, the chosen token, the
tab, the explained pair, the configurations), not only its page, and so does its shared link in a fresh browser.
The button is pressed for one lesson of each shape (its page, its inputs' names, its model, its check: 22 of 25), the
link opened for one lesson per page, the one whose link carries the most (its own model, then the most inputs);
tests/views/test_lessons.py presses every lesson's button and opens every lesson's link from its query string alone,
and checks each one's values."""

from __future__ import annotations

import re

import pytest

from core.lessons.lessons import LESSONS, Lesson
from tests.browser.harness import SHOTS, VIEWPORT, check_and_shoot, load, open_page, start_server, wait_for_idle
from tests.views.cache_fill import prefill_lessons

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(chromium, minilm, tmp_path_factory):
    """An app server of this module's own, on a cache of its own that holds the heavy lessons' benchmark embeddings as
    seeded random vectors (as tests/views/test_lessons.py does): what a student clicks and sees is tested here, the
    numbers in tests/core/lessons. The other browser tests' server keeps its real vectors."""
    cache = str(tmp_path_factory.mktemp("lessons-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EXPLORER_CACHE_DIR", cache)
        prefill_lessons(minilm)
    app = start_server(SHOTS / "server-lessons.log", env={"EXPLORER_CACHE_DIR": cache})
    yield app
    app.stop()
LONG = 600  # seconds: Evaluation's first visit embeds the 7,977 STS-B texts once per pooling on a shared CPU
TABS = ("Token drift", "Sentence drift")
LINKED = {max((lesson for lesson in LESSONS if lesson.page == page),
              key=lambda lesson: (lesson.model is not None, len(lesson.inputs))).number
          for page in {lesson.page for lesson in LESSONS}}


def _shape(lesson: Lesson) -> tuple:
    """What decides the view a lesson opens and what is checked of it: its page, its inputs' names, its model and
    its check's figure; lessons of one shape differ only in the values (texts, a pair), which tests/views checks."""
    return lesson.page, tuple(sorted(lesson.inputs)), lesson.model is not None, lesson.inputs.get("ev_check")


WALKED = [next(lesson for lesson in LESSONS if _shape(lesson) == shape)
          for shape in dict.fromkeys(_shape(lesson) for lesson in LESSONS)]


def _button(page, server, lesson: Lesson) -> str:
    """Open the lesson by its button; the share link shown beside it is returned."""
    open_page(page, server, "lessons")
    button = page.locator(f".st-key-les_open_{lesson.number} button")
    if not button.is_visible():  # the first lesson opens expanded; the others open on a click
        page.get_by_text(f"{lesson.number}. {lesson.title}", exact=True).first.click()
    link = re.search(r"https?://\S+", page.get_by_text("Or share this view:").nth(lesson.number - 1).inner_text())
    button.click()
    wait_for_idle(page, LONG)
    return link.group(0)


def _selected(page, label: str) -> str:
    return page.get_by_role("combobox", name=label).first.input_value()


def _expect_view(page, lesson: Lesson) -> None:
    assert f"/{lesson.page}" in page.url
    texts = next((value for key, value in lesson.inputs.items() if key.endswith("_texts")), None)
    if texts is not None:
        assert str(texts) in [box.input_value() for box in page.locator("textarea").all()]
    if "layers_word" in lesson.inputs:  # the chip chosen in every sentence is the lesson's word
        for i in range(1, len(str(texts).split("\n")) + 1):
            chosen = page.get_by_role("radiogroup", name=f"Sentence {i}").get_by_role("radio", checked=True)
            assert chosen.inner_text().strip() == lesson.inputs["layers_word"]
    if lesson.inputs.get("layers_tab") in TABS:
        assert page.get_by_role("tab", name=str(lesson.inputs["layers_tab"]), selected=True).count() == 1
    if "sim_pair" in lesson.inputs:  # the named pair's explanation is drawn
        a, b = (int(i) for i in str(lesson.inputs["sim_pair"]).split(","))
        assert _selected(page, "Text A").startswith(f"{a}.")
        assert _selected(page, "Text B").startswith(f"{b}.")
        page.locator("[data-testid='stMetric']").filter(has_text="Sum of the token-pair contributions").first.wait_for()
    if "ev_poolings" in lesson.inputs:
        chips = page.locator("[data-testid='stMultiSelect']").filter(has_text="Poolings").first.inner_text()
        assert all(mode in chips.split("\n") for mode in lesson.inputs["ev_poolings"])
    if "ev_check" in lesson.inputs:  # the check chosen, and its figure drawn once its vectors are embedded
        checks = page.get_by_role("radiogroup", name="Check")
        assert checks.get_by_role("radio", name=str(lesson.inputs["ev_check"]), exact=True).is_checked()
        if lesson.inputs["ev_check"] == "Static model":  # none distilled yet on a fresh machine: the button to
            page.locator(".st-key-ev_distil button").wait_for(timeout=LONG * 1000)
        else:
            page.locator(".stPlotlyChart").first.wait_for(timeout=LONG * 1000)
    if "ev_diag_config" in lesson.inputs:
        assert _selected(page, "Configuration") == lesson.inputs["ev_diag_config"]
        assert page.get_by_role("checkbox", name="Only failures (relevant text not first)").is_checked()


@pytest.mark.parametrize("lesson", WALKED, ids=lambda lesson: f"lesson-{lesson.number}")
def test_each_lesson_opens_its_exact_view_by_button_and_by_link(page, server, chromium, lesson):
    link = _button(page, server, lesson)
    _expect_view(page, lesson)
    # none distilled yet: a button; no model of images and texts downloaded here: the page says so
    drawn = lesson.page not in ("model", "images") and lesson.inputs.get("ev_check") != "Static model"
    check_and_shoot(page, f"lesson-{lesson.number}", chart=drawn)
    if lesson.number not in LINKED:
        return
    context = chromium.new_context(viewport=VIEWPORT)  # a student who only has the link
    try:
        fresh = context.new_page()
        fresh.set_default_timeout(LONG * 1000)
        load(fresh, link, LONG)
        _expect_view(fresh, lesson)
    finally:
        context.close()
