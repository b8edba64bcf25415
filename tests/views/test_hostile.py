"""Hostile input through the pages under AppTest: no exception, nothing typed is lost, and user text is shown
as text (never in an element that renders HTML, never as markup in a Plotly label)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, app_test
from tests.core.test_hostile import HOSTILE
from tests.figures import specs

MARKUP = ("<script", "<b>", "<img")
TEXT_PAGES = {  # page -> key of its main text area, and whether the page then draws a figure
    "views/similarity.py": ("sim_texts", True),
    "views/layers.py": ("layers_texts", True),
    "views/model.py": ("model_text", False),
}


def _elements(node):
    children = getattr(node, "children", None) or {}
    for child in children.values() if isinstance(children, dict) else children:
        yield child
        yield from _elements(child)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _chart_strings(at) -> list[str]:
    """Every label, hover and tick text of every Plotly chart on the page."""
    strings = []
    for spec in specs(at):
        strings += [s for trace in spec.get("data", []) for key in ("text", "hovertext", "customdata", "x", "y")
                    for s in _strings(trace.get(key))]
        strings += [s for name, axis in spec.get("layout", {}).items() if name.startswith(("xaxis", "yaxis"))
                    for s in _strings(axis.get("ticktext"))]
    return strings


def assert_shown_as_text(at) -> None:
    for element in _elements(at._tree):
        proto = getattr(element, "proto", None)
        if getattr(proto, "allow_html", False):
            assert not any(m in proto.body for m in MARKUP), f"user text rendered as HTML: {proto.body[:200]}"
        assert element.type != "html" or not any(m in element.proto.body for m in MARKUP)
    raw = [s for s in _chart_strings(at) if any(m in s for m in MARKUP)]
    assert not raw, f"user text reaches a Plotly label as markup: {raw[:3]}"


def test_every_page_this_suite_types_into_exists():
    missing = [page for page in TEXT_PAGES if not (ROOT / page).is_file()]
    assert not missing, f"the hostile suite would skip {missing}: a page moved without its test"


@pytest.fixture(scope="module", params=list(TEXT_PAGES))
def text_page(request):
    return request.param, app_test(request.param)


@pytest.mark.parametrize("name", [n for n in HOSTILE if n != "one long word"] + ["one megabyte"])
def test_hostile_texts_keep_the_page_working_and_are_shown_as_text(text_page, name):
    page, at = text_page
    key, draws = TEXT_PAGES[page]
    hostile = "a" * 1_000_000 if name == "one megabyte" else HOSTILE[name]
    typed = f"The bank raised its rates.\n{hostile}\nWe sat on the river bank."
    at.text_area(key=key).set_value(typed).run()
    assert not at.exception, at.exception[0].value if at.exception else ""
    assert at.text_area(key=key).value == typed  # nothing the user typed is lost
    assert at.get("plotly_chart") or not draws, "the page drew no figure"
    assert_shown_as_text(at)
    if name == "one megabyte":
        assert any("max_chars_per_text" in w.value for w in at.warning)


@pytest.mark.parametrize("model_id", ["../../etc", "https://evil.example/model", "<script>alert(1)</script>",
                                      "a" * 500, "/etc"])
def test_hostile_model_ids_in_the_sidebar_are_refused_in_one_sentence(model_id):
    at = app_test()
    at.sidebar.text_input(key="sb_custom").set_value(model_id).run()
    assert not at.exception
    assert len(at.sidebar.error) == 1 and "Still showing all-MiniLM-L6-v2" in at.sidebar.error[0].value
    assert at.sidebar.text_input(key="sb_custom").value == model_id
    assert at.table[0].value.loc["model", "value"] == "all-MiniLM-L6-v2"
    assert_shown_as_text(at)


def test_a_pickle_checkpoint_folder_in_the_sidebar_is_refused_and_runs_nothing(tiny_bert_folder, tmp_path: Path):
    from tests.core.test_hostile import _pickle_folder, _RunsCode

    marker = tmp_path / "ran"
    folder = _pickle_folder(tiny_bert_folder, tmp_path / "evil", {"weight": _RunsCode(marker)})
    at = app_test()
    at.sidebar.text_input(key="sb_custom").set_value(str(folder)).run()
    assert not at.exception
    assert "pickle checkpoint that would run code" in at.sidebar.error[0].value
    assert not marker.exists()


def test_retrieval_over_a_pasted_hostile_corpus_with_a_hostile_query():
    """The paste corpus is chosen before the page first runs, so the test does not embed the STS-B corpus."""
    from streamlit.testing.v1 import AppTest

    corpus = "\n".join(HOSTILE[n] for n in HOSTILE if n != "one long word") + "\nA man plays the guitar."
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["ret_source"] = "Paste texts"
    at.session_state["ret_paste"] = corpus
    at.session_state["ret_query"] = HOSTILE["html script"]
    at.run()
    at.switch_page("views/retrieval.py").run()
    assert not at.exception, at.exception[0].value if at.exception else ""
    assert at.text_area(key="ret_paste").value == corpus
    assert at.text_input(key="ret_query").value == HOSTILE["html script"]
    assert at.get("plotly_chart")
    assert_shown_as_text(at)
