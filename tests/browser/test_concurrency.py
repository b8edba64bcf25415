"""Eight people on one server at once: each sees only their own texts and figure; the model is loaded once."""

from __future__ import annotations

import pytest

from tests.browser.harness import VIEWPORT, check_and_shoot, fill, open_page, wait_for_idle

pytestmark = pytest.mark.browser
SESSIONS = 8
ANIMALS = ["otter", "heron", "badger", "lynx", "walrus", "gecko", "ibis", "marmot"]


def _texts(k: int) -> str:
    animal = ANIMALS[k]
    return f"The {animal} sleeps.\nA {animal} swims in session {k}.\nTaxes rose in session {k}."


def _labels(page) -> str:
    return " ".join(page.locator(".js-plotly-plot .ytick text").all_text_contents())


def test_eight_sessions_at_once_see_only_their_own_texts_and_share_one_model(chromium, server):
    warm = chromium.new_context(viewport=VIEWPORT).new_page()
    open_page(warm, server, "similarity")
    before_mb = server.rss_mb()
    contexts = [chromium.new_context(viewport=VIEWPORT) for _ in range(SESSIONS)]
    pages = [context.new_page() for context in contexts]
    try:
        for page in pages:
            page.set_default_timeout(180_000)
            page.goto(f"{server.url}/similarity")
        for page in pages:
            wait_for_idle(page, 180)
        for k, page in enumerate(pages):  # all eight edits reach the server before any result is awaited
            fill(page, "Texts, one per line", _texts(k))
        for k, page in enumerate(pages):
            page.wait_for_function(f"() => [...document.querySelectorAll('.js-plotly-plot .ytick text')]"
                                   f".some(t => t.textContent.includes('{ANIMALS[k]}'))")
            wait_for_idle(page, 180)
        after_mb = server.rss_mb()
        for k, page in enumerate(pages):
            labels = _labels(page)
            assert f"session {k}." in labels
            others = [a for j, a in enumerate(ANIMALS) if j != k and a in labels]
            assert not others, f"session {k} sees another session's texts: {others}"
            assert page.get_by_label("Texts, one per line").input_value() == _texts(k)
        check_and_shoot(pages[0], "concurrency")  # the same page eight times: axe once (eight took 20 s of CI)
    finally:
        for context in contexts:
            context.close()
        warm.context.close()
    print(f"server RSS {before_mb:.0f} MB before, {after_mb:.0f} MB after {SESSIONS} sessions")
    assert after_mb - before_mb < 250, f"server memory grew {after_mb - before_mb:.0f} MB for {SESSIONS} sessions"
