"""Each page's main interaction in a real browser, as a person would do it: the figure must change with it."""

from __future__ import annotations

import pytest

from tests import stsb_counts
from tests.browser.canvas import map_state, wait_drawn
from tests.browser.harness import (
    SHOTS,
    check_and_shoot,
    choose,
    fill,
    open_page,
    plot_data,
    start_server,
    wait_for_idle,
)

pytestmark = pytest.mark.browser
LONG = 600  # seconds: the first visit embeds the 7,977 STS-B corpus texts on a shared CPU


def _facts(page) -> str:
    return page.locator("[data-testid='stTable']").first.inner_text()


def _metric(page, label: str) -> str:
    return page.locator("[data-testid='stMetric']").filter(has_text=label).first \
        .locator("[data-testid='stMetricValue']").inner_text()


def test_home_shows_the_model_facts_and_follows_the_sidebar(page, server):
    open_page(page, server, "")
    assert "384" in _facts(page) and "all-MiniLM-L6-v2" in _facts(page)
    choose(page, "Model", "paraphrase-MiniLM-L3-v2")
    wait_for_idle(page)
    page.wait_for_function("() => document.querySelector(\"[data-testid='stTable']\").innerText"
                           ".includes('paraphrase-MiniLM-L3-v2')")
    assert "model=paraphrase-MiniLM-L3-v2" in page.url
    check_and_shoot(page, "home", chart=False)


def test_the_served_app_runs_numpys_blas_on_one_thread(page):
    """Read from the running server process: it says in its log what its BLAS runs on once a session has started it.
    The server is started with two BLAS threads asked for (as this machine's two cores give OpenBLAS unless a test run
    asks for one), so only the app's own setting brings them to one."""
    app = start_server(SHOTS / "server-threads.log", env={"OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2"})
    try:
        open_page(page, app, "")
        said = [line for line in app.log().splitlines() if line.startswith("Serving many sessions: BLAS threads ")]
    finally:
        app.stop()
    assert said and all(pool.split()[-1] == "1" for pool in said[0].split("threads ", 1)[1].split(", "))


def test_similarity_redraws_the_heatmap_for_edited_texts(page, server):
    open_page(page, server, "similarity")
    before = plot_data(page)[0]
    assert len(before["z"]) == 9  # the example set: 3 × 3 questions
    check_and_shoot(page, "similarity-open")
    fill(page, "Texts, one per line", "A dog runs in the park.\nA puppy plays outside.\nInterest rates rose again.")
    wait_for_idle(page)
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .ytick text')]"
                           ".some(t => t.textContent.includes('Interest rates'))")
    after = plot_data(page)[0]
    assert len(after["z"]) == 3 and after["z"][0][1] > after["z"][0][2]  # the dog and the puppy are closest
    check_and_shoot(page, "similarity")


def test_layers_clicking_a_token_chip_redraws_the_drift(page, server):
    open_page(page, server, "layers")
    before = {trace["name"]: trace["y"] for trace in plot_data(page, 0)}
    chip = page.get_by_role("radiogroup", name="Sentence 1").get_by_role("radio").filter(has_text="picnic").first
    chip.click()
    wait_for_idle(page)
    after = {trace["name"]: trace["y"] for trace in plot_data(page, 0)}
    assert after["S1 · S2"] != before["S1 · S2"] and after["S2 · S3"] == before["S2 · S3"]
    assert after["S1 · S2"][0] < before["S1 · S2"][0]  # "picnic" against "bank" is no longer the same word
    check_and_shoot(page, "layers")


def test_model_tokenizer_playground_follows_typing(page, server):
    open_page(page, server, "model")
    before = _metric(page, "Tokens in the text")
    fill(page, "Text to tokenize", "Tokenizers split unbelievably long words.")
    wait_for_idle(page)
    page.locator("[data-testid='stCode']").filter(has_text="unbelievably").first.wait_for()
    assert _metric(page, "Tokens in the text") != before
    check_and_shoot(page, "model", chart=False)


def test_retrieval_answers_a_typed_query(page, server):
    open_page(page, server, "retrieval", LONG)
    before = plot_data(page)
    fill(page, "Query", "A woman is slicing an onion.")
    wait_for_idle(page, LONG)
    page.wait_for_function("() => document.querySelector('.js-plotly-plot').data"
                           ".some(t => (t.y || []).some(y => y.toLowerCase().includes('onion')))")
    labels = [y for trace in plot_data(page) for y in trace["y"]]
    assert labels != [y for trace in before for y in trace["y"]] and "onion" in labels[0].lower() + labels[-1].lower()
    check_and_shoot(page, "retrieval")


def test_evaluation_runs_the_sts_benchmark(page, server):
    open_page(page, server, "evaluation", LONG)
    check_and_shoot(page, "evaluation-retrieval")
    page.get_by_text("STS correlation", exact=True).first.click()
    wait_for_idle(page, LONG)
    page.get_by_text("Spearman", exact=True).first.wait_for()
    assert float(_metric(page, "Spearman")) > 0.8
    assert sum(len(trace["x"]) for trace in plot_data(page, 0)) == stsb_counts.PUBLISHED_PAIRS["dev"]  # a dot a pair
    check_and_shoot(page, "evaluation")


def test_map_opens_and_places_a_search(page, server):
    open_page(page, server, "map", LONG)
    wait_drawn(page)  # the map is drawn with WebGL
    before = map_state(page)["query"]
    query = "Two dogs are playing in the snow."
    fill(page, "Query", query)
    wait_for_idle(page, LONG)
    after = map_state(page)["query"]
    assert after["text"] == query and (after["x"], after["y"]) != (before["x"], before["y"])
    check_and_shoot(page, "map")


def test_finetune_opens_ready_to_train(page, server):
    open_page(page, server, "finetune", LONG)
    assert page.get_by_role("button", name="Start training").is_enabled()
    heatmap = plot_data(page, 0)[0]
    assert len(heatmap["z"]) == 9  # the example heatmap of the starting model
    check_and_shoot(page, "finetune")
