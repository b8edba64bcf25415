"""Why a reranker scored a pair, in AppTest: on Retrieval a reranked hit's tokens coloured by their attributions
(core.analysis.rerank_attribution's numbers, the score CrossEncoder.predict's), the deletion check and why one hit
scores above the next; on Evaluation a query with its relevant text; the end of lesson 19; bad input one sentence."""

import numpy as np
import pytest

from core.analysis.rerank_attribution import compare_texts, explain_rerank, explain_with_checks
from core.evaluation.retrieval import paraphrase_task
from core.jobs import JOBS
from core.models.reranker import load_reranker
from tests.conftest import app_test
from tests.figures import figure
from tests.views.cache_fill import prefill
from tests.views.test_rerank_pages import CORPUS, NAME, installed  # noqa: F401 (a fixture)

QUERY = "A man plays the guitar."


def _settled(at):
    """The page after the explanation's background job is done (it may have finished between the page's run, which
    showed it queued, and now: the page runs again either way)."""
    assert JOBS.wait_idle(600)
    at.run()
    return at


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _shown_shares(chart) -> list[float]:
    return [value for row in chart.data[0].z for value in row if value is not None]


def test_retrieval_explains_a_reranked_hit_and_why_it_beats_the_next(installed):  # noqa: F811
    at = _settled(app_test("views/retrieval.py", ret_source="Paste texts", ret_paste="\n".join(CORPUS),
                           ret_query=QUERY, ret_rerank_first="BM25", ret_rerank_n="3", ret_rerank_why="1"))
    assert not at.exception and not at.error
    reranked = at.table[-1].value
    top, second = reranked["text"].iloc[0], reranked["text"].iloc[1]
    assert float(_metrics(at)["Score"]) == pytest.approx(float(installed.predict([[QUERY, top]])[0]), abs=1e-4)
    expected = explain_rerank(load_reranker(NAME, "cpu"), QUERY, top)
    shares = _shown_shares(figure(at, "ret_rerank_why_tokens"))
    kept = expected.positions("query") + expected.positions("text")
    np.testing.assert_allclose(shares, expected.attributions[kept] / np.abs(expected.attributions[kept]).sum(),
                               atol=1e-5)
    assert list(figure(at, "ret_rerank_why_tokens").data[0].y) == ["query", "hit 1"]
    deletion = figure(at, "ret_rerank_why_deletion")
    assert [trace.name for trace in deletion.data][-2:] == ["random orders (mean)", "most attributed first"]
    assert "Area between the curves" in _metrics(at)
    verdict = explain_with_checks(load_reranker(NAME, "cpu"), QUERY, top).deletion
    shown = at.success if verdict.better_than_random else at.warning
    assert verdict.verdict() in [box.value for box in shown]
    compared = compare_texts(load_reranker(NAME, "cpu"), QUERY, top, second)
    assert float(_metrics(at)["Logit difference"]) == pytest.approx(compared.logit_difference, abs=1e-4)
    assert any("hit 1 scores above hit 2" in block.value for block in at.markdown)
    at.selectbox(key="ret_rerank_why_versus").set_value(0).run()
    at = _settled(at)
    assert "Logit difference" not in _metrics(at)


def test_retrieval_keeps_the_explanation_off_until_asked(installed):  # noqa: F811
    at = app_test("views/retrieval.py", ret_source="Paste texts", ret_paste="\n".join(CORPUS), ret_query=QUERY,
                  ret_rerank_first="BM25", ret_rerank_n="3")
    assert not at.exception
    assert not at.toggle(key="ret_rerank_why").value
    assert "Completeness gap" not in _metrics(at)


def test_a_long_text_is_cut_and_said_in_one_sentence(installed):  # noqa: F811
    long = " ".join(["An acoustic guitar played slowly on a quiet stage at night."] * 40)
    at = _settled(app_test("views/retrieval.py", ret_source="Paste texts", ret_paste=f"{long}\nA cat sleeps.",
                           ret_query=QUERY, ret_rerank_first="BM25", ret_rerank_n="2", ret_rerank_why="1"))
    assert not at.exception
    assert any("so it cut them" in box.value for box in at.info)


def test_evaluation_explains_a_query_and_its_relevant_text(installed, minilm):  # noqa: F811
    task = paraphrase_task("dev")
    prefill(minilm, task.corpus, seed=80)
    prefill(minilm, task.queries, seed=81)
    at = _settled(app_test("views/evaluation.py", ev_section="Rerank", ev_rerank_first="BM25", ev_rerank_why="1"))
    assert not at.exception and not at.error
    q = next(i for i, relevant in enumerate(task.relevant) if relevant)
    relevant = task.corpus[min(task.relevant[q])]
    assert float(_metrics(at)["Score"]) == pytest.approx(float(installed.predict([[task.queries[q], relevant]])[0]),
                                                         abs=1e-4)
    assert figure(at, "ev_rerank_why_deletion").data
    at.text_input(key="ev_rerank_why_versus").set_value("Stocks fell sharply today.").run()
    at = _settled(at)
    assert "Logit difference" in _metrics(at)


def test_lesson_19_ends_on_the_explanation(installed):  # noqa: F811
    from core.lessons.lessons import LESSONS

    lesson = next(lesson for lesson in LESSONS if lesson.number == 19)
    at = app_test("views/lessons.py")
    assert not at.exception
    at.toggle(key="les_19_why").set_value(True).run()
    at = _settled(at)
    assert not at.exception and not at.error
    query, text, other = lesson.rerank_pair
    assert float(_metrics(at)["Score"]) == pytest.approx(float(installed.predict([[query, text]])[0]), abs=1e-4)
    assert figure(at, "les_19_why_difference").data


def test_an_empty_text_is_one_sentence(installed):  # noqa: F811
    """The component itself, as any page calls it: an empty text never reaches the network."""
    from streamlit.testing.v1 import AppTest

    script = AppTest.from_string(
        "from core.models.reranker import load_reranker\n"
        "from ui.components.rerank_explain import rerank_explanation\n"
        f"rerank_explanation(load_reranker({NAME!r}, 'cpu'), 'A query.', '   ', key='k')\n")
    script.run()
    assert not script.exception
    assert [box.value for box in script.info] == ["The text is empty; type one to explain the reranker's score."]
