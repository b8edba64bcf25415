"""A user checks a model of today as they would: its local folder typed in "Other model", a Retrieval query, and the
caption names the query prompt the query was embedded with."""

from __future__ import annotations

import pytest

from tests.browser.harness import check_and_shoot, fill, open_page, wait_for_idle
from tests.modern import QWEN_PROMPTS, qwen3_lasttoken

pytestmark = pytest.mark.browser


def test_a_prompted_decoder_typed_in_other_model_answers_a_retrieval_query_with_its_query_prompt(page, server,
                                                                                                 tmp_path):
    folder = qwen3_lasttoken(tmp_path / "qwen3-embedding-tiny")
    open_page(page, server, "retrieval")
    fill(page, "Other model", str(folder))
    wait_for_idle(page)
    page.get_by_text("Paste texts", exact=True).first.click()
    wait_for_idle(page)
    fill(page, "Query", "Who plays the guitar?")
    wait_for_idle(page)
    caption = page.get_by_text("Queries get the query prompt").first
    caption.wait_for()
    assert QWEN_PROMPTS["query"].split("\n")[0] in caption.inner_text()
    page.get_by_text(f"{folder}: the texts in full").first.wait_for()  # the model's own list, not only the baselines
    check_and_shoot(page, "retrieval-prompted-decoder")
