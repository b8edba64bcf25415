import threading

import numpy as np
import pytest

from core.data.examples import EXAMPLES
from core.jobs import DOWNLOADS, JOBS
from tests.conftest import CATALOG_DENSE, app_test
from tests.figures import figures as _charts
from tests.views.download_asked import assert_download_offered

PAGE = "views/similarity.py"


def _metrics(at) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def _texts(at, text: str):
    at.text_area(key="sim_texts").set_value(text).run()
    assert not at.exception
    return at


@pytest.fixture
def page():  # a fresh page per test: tests change its inputs
    return app_test(PAGE)


def test_opens_on_paraphrase_clusters_with_the_untrained_baseline():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    main, untrained = _charts(at)[:2]
    z = main.data[0].z
    assert z.shape == (9, 9) and z[0][0] == pytest.approx(1.0, abs=1e-5)
    assert main.data[0].zmin == -1 and main.data[0].texttemplate == "%{z:.2f}"
    assert untrained.data[0].z.shape == (9, 9)
    metrics = _metrics(at)
    assert float(metrics["Mean off-diagonal cosine"]) < 0.4 < 0.9 < float(metrics["Same texts, untrained BERT"])
    assert len(at.get("download_button")) == 3  # the two heatmaps and the explanation


def test_the_explanation_opens_on_the_closest_pair_and_its_parts_sum_to_that_cell():
    at = app_test(PAGE)
    z = _charts(at)[0].data[0].z
    upper = np.triu(np.asarray(z), k=1) - np.tril(np.ones_like(z))  # the off-diagonal cells, each pair once
    row, col = np.unravel_index(np.argmax(upper), upper.shape)
    pickers = [box for box in at.main.selectbox if box.label in ("Text A", "Text B")]
    assert [box.value for box in pickers] == [row, col]
    metrics = _metrics(at)
    assert float(metrics["Cosine of the pair"]) == pytest.approx(z[row][col], abs=1e-4)
    assert metrics["Sum of the token-pair contributions"] == metrics["Cosine of the pair"]
    pickers[1].set_value(8).run()
    assert float(_metrics(at)["Cosine of the pair"]) == pytest.approx(z[row][8], abs=1e-4)
    cells = _charts(at)[0].data[1]
    assert cells.name == "cells" and len(cells.customdata) == 81  # a click on any cell picks its pair


def test_cls_pooling_says_there_is_no_exact_split_and_offers_integrated_gradients():
    at = app_test(PAGE, pooling="cls")
    assert any("no split over token pairs" in info.value for info in at.info)
    at.button(key="sim_why_run").click().run()  # in the server's queue: its status line, then the bars
    assert not at.exception
    assert at.get("progress") or any("Integrated gradients" in box.value for box in at.info)
    assert JOBS.wait_idle(600)
    at.run()
    assert any((chart.layout.title.text or "").startswith("A (B fixed)") for chart in _charts(at))
    at.slider(key="sim_why_where").set_value(0).run()  # another setting: asked for again, not shown stale
    assert not any((chart.layout.title.text or "").startswith("A (B fixed)") for chart in _charts(at))


def test_empty_one_and_duplicate_texts(page):
    at = _texts(page, "   \n\n")
    assert "no texts yet" in at.info[0].value
    assert not at.get("plotly_chart")
    at = _texts(page, "Only one sentence.")
    assert "1 × 1 matrix" in at.info[0].value
    assert _charts(at)[0].data[0].z.shape == (1, 1)
    assert _metrics(at)["Mean off-diagonal cosine"] == "—"
    at = _texts(page, "A cat.\nA dog.\nA cat.")
    assert "Texts 1, 3 are identical" in at.info[0].value
    assert _charts(at)[0].data[0].z[0][2] == pytest.approx(1.0, abs=1e-5)


def test_two_hundred_texts_stay_readable_and_more_are_cut_to_the_limit(page):
    texts = [f"Sentence {i} talks about subject {i % 7} in its own words." for i in range(201)]
    at = _texts(page, "\n".join(texts))
    assert "limit (max_texts) is 200" in at.warning[0].value
    figure = _charts(at)[0]
    assert figure.data[0].z.shape == (200, 200)
    assert figure.data[0].texttemplate is None
    assert len(figure.layout.yaxis.ticktext) <= 40


def test_a_twenty_thousand_character_text_is_truncated_and_flagged(page):
    long = "word " * 3999 + "words"
    assert len(long) == 20_000
    at = _texts(page, f"A short sentence.\n{long}")
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and "Cut by all-MiniLM-L6-v2: text 2" in warnings[0]  # one message, not two
    at = _texts(page, f"A short sentence.\n{long}!")
    assert "Text(s) 2 exceed the limit (max_chars_per_text) of 20,000" in at.warning[0].value


def test_example_picker_clustering_and_measures(page):
    at = page
    at.selectbox(key="sim_example").set_value("Synonyms against antonyms (same frame)").run()
    assert at.text_area(key="sim_texts").value.splitlines() == EXAMPLES["Synonyms against antonyms (same frame)"]
    at.selectbox(key="sim_example").set_value("Paraphrase clusters (3 × 3 questions)").run()
    at.text_area(key="sim_texts").set_value("\n".join(EXAMPLES["Paraphrase clusters (3 × 3 questions)"][i]
                                                     for i in (0, 3, 6, 1, 4, 7, 2, 5, 8))).run()
    at.toggle(key="sim_cluster").set_value(True).run()
    labels = _charts(at)[0].layout.yaxis.ticktext
    blocks = [{(int(label.split(".")[0]) - 1) % 3 for label in labels[k:k + 3]} for k in (0, 3, 6)]
    assert all(len(block) == 1 for block in blocks), labels
    at.radio(key="sim_metric").set_value("euclidean").run()
    trace = _charts(at)[0].data[0]
    assert trace.zmin == 0 and trace.z[0][0] == pytest.approx(0.0, abs=1e-3)
    assert "Mean off-diagonal distance" in _metrics(at)
    at.radio(key="sim_metric").set_value("cosine").run()
    at.toggle(key="sim_cluster").set_value(False).run()


def test_texts_survive_a_model_switch_and_a_page_switch():
    at = app_test(PAGE)
    _texts(at, "My own first text.\nMy own second text.")
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert not at.exception
    assert at.text_area(key="sim_texts").value == "My own first text.\nMy own second text."
    assert _charts(at)[0].layout.title.text.startswith("paraphrase-MiniLM-L3-v2")
    at.sidebar.slider(key="sb_layer").set_value(1).run()
    assert not at.exception
    assert "layer 1" in _charts(at)[0].layout.title.text
    at.switch_page("views/home.py").run()
    at.switch_page(PAGE).run()
    assert at.text_area(key="sim_texts").value == "My own first text.\nMy own second text."


def test_compare_mode_shows_both_configurations_their_difference_and_moved_pairs():
    at = app_test(PAGE)
    at.toggle(key="sim_compare").set_value(True).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="sim_b_model").value == "paraphrase-MiniLM-L3-v2"
    assert at.slider(key="sim_b_layer").value == 3
    charts = {chart.layout.title.text: chart for chart in _charts(at)[:4]}
    assert list(charts) == ["untrained BERT", "A: all-MiniLM-L6-v2 · default pooling · layer 6 (last)",
                            "B: paraphrase-MiniLM-L3-v2 · default pooling · layer 3 (last)", "B − A"]
    a, b, diff = (chart.data[0].z for chart in list(charts.values())[1:])
    assert diff[0][1] == pytest.approx(b[0][1] - a[0][1], abs=1e-9)
    moved = at.table[0].value
    assert {"text 1", "text 2"} <= set(moved.columns)  # both texts of each pair, in full
    assert len(moved) == 15
    assert moved["change (B − A)"].abs().is_monotonic_decreasing
    at.selectbox(key="sim_b_model").set_value("all-MiniLM-L6-v2").run()
    assert at.slider(key="sim_b_layer").value == 6
    at.slider(key="sim_b_layer").set_value(0).run()
    at.selectbox(key="sim_b_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert not at.exception
    assert at.slider(key="sim_b_layer").value == 0
    assert "B: paraphrase-MiniLM-L3-v2 · default pooling · layer 0" in [c.layout.title.text for c in _charts(at)[:4]]


def test_a_link_opens_the_same_view_and_the_page_keeps_its_link_current():
    from core.data.examples import EXAMPLES
    from ui.state.url_codec import encode

    bank = "\n".join(EXAMPLES["One word, several senses (bank)"])
    at = app_test(PAGE, sim_texts=encode(bank), sim_cluster="1", sim_metric="euclidean", ret_query="stale")
    assert not at.exception
    assert at.text_area(key="sim_texts").value == bank
    assert at.toggle(key="sim_cluster").value is True and at.radio(key="sim_metric").value == "euclidean"
    assert "ret_query" not in at.query_params  # another page's input is not part of this page's link
    at.radio(key="sim_metric").set_value("dot").run()
    assert at.query_params["sim_metric"] in ("dot", ["dot"])
    at.radio(key="sim_metric").set_value("cosine").run()
    assert "sim_metric" not in at.query_params  # the default needs no place in the link


def test_a_link_value_that_does_not_fit_is_ignored():
    at = app_test(PAGE, sim_metric="median", sim_cluster="maybe")
    assert not at.exception
    assert at.radio(key="sim_metric").value == "cosine" and at.toggle(key="sim_cluster").value is False


def test_compare_mode_offers_a_hub_model_b_the_cache_lacks_and_shows_a_alone_until_it_is_downloaded(
        hub_uncached, monkeypatch):
    at = app_test(PAGE)
    at.toggle(key="sim_compare").set_value(True).run()
    at.selectbox(key="sim_b_model").set_value(CATALOG_DENSE).run()
    assert not at.exception and not at.error
    assert_download_offered(at, CATALOG_DENSE, "sim_b_model", hub_uncached)
    assert f"Configuration A is shown alone until {CATALOG_DENSE} is here." in [c.value for c in at.caption]
    assert [chart.layout.title.text for chart in _charts(at)[:2]] == [
        "all-MiniLM-L6-v2 · default pooling · layer 6 (last)", "untrained BERT"]  # A alone, as without compare

    asked, release = [], threading.Event()

    def download_job(repo: str):  # the server's job, its work held until the test lets it end
        asked.append(repo)
        return DOWNLOADS.submit(("held download", repo), f"Downloading {repo}",
                                lambda progress: (progress(0, 1000), release.wait(30)))

    monkeypatch.setattr("ui.components.model_download.download_job", download_job)
    try:
        at.button(key="sim_b_model_download_button").click().run()
        assert not at.exception and not at.error
        assert asked and set(asked) == {CATALOG_DENSE}
        assert at.button(key="sim_b_model-download-cancel").label == "Cancel download"
        assert f"Configuration A is shown alone until {CATALOG_DENSE} is here." in [c.value for c in at.caption]
        assert _charts(at)[0].layout.title.text == "all-MiniLM-L6-v2 · default pooling · layer 6 (last)"
        assert CATALOG_DENSE not in hub_uncached
    finally:
        release.set()
        assert DOWNLOADS.wait_idle(30)
