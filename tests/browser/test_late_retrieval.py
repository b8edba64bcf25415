"""Retrieval on a late-interaction model in a real browser: the model's list with each hit's token matches, and "why
this hit?" drawn as the query's tokens joined to the hit tokens they matched, for the first hit and another one. The
model is the packaged all-MiniLM-L6-v2 converted to a MultiVectorEncoder (its 128-dim projection random, seeded:
its token geometry is MiniLM's, its ranking is not a trained ColBERT's)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from core.encoding.late.tokens import encode_multivector
from core.models.loading import load_model
from tests.browser.harness import check_and_shoot, choose, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser
LONG = 600
QUERY = "A man is playing a guitar."
CORPUS = ["A man plays the guitar on stage.", "A woman slices an onion in the kitchen.",
          "The stock market fell sharply today.", "Someone is playing an instrument.",
          "A cat sleeps on the warm rug.", "Two men play guitars and sing."]


@pytest.fixture(scope="module")
def converted_minilm(tmp_path_factory):
    import torch
    from sentence_transformers import MultiVectorEncoder

    from core.models.packages import packaged_minilm_folder

    folder = tmp_path_factory.mktemp("late") / "minilm-multivector"
    torch.manual_seed(0)
    MultiVectorEncoder(str(packaged_minilm_folder()), device="cpu").save(str(folder))
    return str(folder)


def _figure_with(page, name: str) -> list[dict]:
    for index in range(page.locator(".js-plotly-plot").count()):
        traces = plot_data(page, index)
        if any(trace["name"] == name for trace in traces):
            return traces
    raise AssertionError(f"no figure with a trace named {name!r}")


def test_a_hits_tokens_are_joined_to_the_query_tokens_they_matched(page, server, converted_minilm):
    query = urlencode({"model": converted_minilm, "ret_source": "Paste texts", "ret_paste": "\n".join(CORPUS),
                       "ret_query": QUERY})
    open_page(page, server, f"retrieval?{query}", LONG)
    table = page.locator("[data-testid='stTable']").first
    assert "token matches" in table.inner_text() and "guitar → guitar" in table.inner_text()
    traces = _figure_with(page, "hit tokens")
    tokens = encode_multivector(load_model(converted_minilm, "cpu"), [QUERY], role="query")[0].tokens
    assert [t for trace in traces if trace["name"].startswith("query:") for t in trace["text"]] == list(tokens)
    caption = page.get_by_text("The shares sum to the score", exact=False).first.inner_text()
    total = float(re.search(r"= (-?[\d.]+)\.$", caption).group(1))
    first = float(table.locator("tbody tr").first.locator("td").nth(1).inner_text())  # as the list shows it
    assert first == pytest.approx(total, rel=1e-4)  # both float32 sums of the same matches, summed apart
    check_and_shoot(page, "late-retrieval-token-matches")
    choose(page, "Hit", "2. " + page.locator("[data-testid='stTable'] tbody tr").nth(1).locator("td").nth(2)
           .inner_text())
    wait_for_idle(page)
    hit = [t for trace in _figure_with(page, "hit tokens") if trace["name"] == "hit tokens" for t in trace["text"]]
    assert hit and hit != [t for trace in traces if trace["name"] == "hit tokens" for t in trace["text"]]
    check_and_shoot(page, "late-retrieval-second-hit")
