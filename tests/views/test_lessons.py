import pytest

from core.lessons.lessons import BANK, LESSONS
from core.models.loading import load_model
from tests.conftest import app_test
from tests.views.cache_fill import prefill_lessons
from ui.state.page_registry import BY_PATH

PAGE = "views/lessons.py"


@pytest.fixture(scope="module", autouse=True)
def cached(minilm):
    """Benchmark embeddings stand in as seeded random vectors, so the heavy checks run in seconds."""
    prefill_lessons(minilm)


def _verdicts(at) -> list[str]:
    return [box.value for box in (*at.success, *at.warning, *at.info) if "this model" in box.value
            or "No fine-tuned model" in box.value or "No static model" in box.value or "No reranker" in box.value
            or "No late-interaction model" in box.value or "No model of images and texts" in box.value]


def test_the_page_lists_every_lesson_and_checks_the_light_ones_at_once():
    at = app_test(PAGE)
    assert not at.exception
    assert [e.label for e in at.main.expander] == [f"{lesson.number}. {lesson.title}" for lesson in LESSONS]
    light = [lesson for lesson in LESSONS if not lesson.heavy]
    assert len(_verdicts(at)) == len(light)
    assert {b.key for b in at.button if b.key.startswith("les_check_")} == {
        f"les_check_{lesson.number}" for lesson in LESSONS if lesson.heavy}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: str(lesson.number))
def test_each_lesson_opens_its_page_with_its_inputs(lesson):
    at = app_test(PAGE)
    at.button(key=f"les_open_{lesson.number}").click().run()
    assert not at.exception
    for key, value in lesson.inputs.items():
        assert at.session_state[key] == value
    if lesson.model is not None:  # a lesson about sparse models opens on one
        assert at.sidebar.selectbox(key="sb_model").value == lesson.model
    if lesson.number == 3:
        assert at.text_area(key="layers_texts").value == "\n".join(BANK)
        assert [p.label for p in at.pills] == ["Sentence 1", "Sentence 2", "Sentence 3"]


def test_the_heavy_checks_run_on_request_and_the_sheet_collects_every_finding():
    at = app_test(PAGE)
    for lesson in LESSONS:
        if lesson.heavy:
            at.button(key=f"les_check_{lesson.number}").click().run()
            assert not at.exception, lesson.title
    assert len(_verdicts(at)) == len(LESSONS)
    sheet = at.get("download_button")[-1]
    assert sheet.proto.label == "Download the lesson sheet (Markdown)"


def _opened_by_link(lesson, settings):
    """The lesson's page opened fresh from its shared link (a new session, the query string only)."""
    from ui.pages.lessons import lesson_query

    query = lesson_query(lesson, settings)
    return app_test(BY_PATH[lesson.page].file, **query)


@pytest.fixture(scope="module")
def lesson_context(minilm):
    from core.lessons.checks import Context
    from core.settings import Settings

    return lambda lesson: Context(minilm, Settings(), lambda model_id: load_model(model_id, "cpu"),
                                  inputs=lesson.inputs)


def _shown_view(at, lesson) -> dict:
    """What the opened page shows of the lesson's subject."""
    from tests.figures import figure

    if lesson.page == "layers":
        chosen = [pill.formatted_values[0] if pill.value is not None else None for pill in at.pills]
        return {"chips": chosen, "tab": at.session_state["layers_tab"],
                "token curves": {t.name: list(t.y) for t in figure(at, "layers_token_drift").data
                                 if t.name.startswith("S")} if at.session_state["layers_tab"] == "Token drift" else {},
                "sentence curves": {t.name: list(t.y) for t in figure(at, "layers_sentence_drift").data
                                    if t.name.startswith("S")}}
    if lesson.page == "similarity":
        return {"pair": [box.value for box in at.main.selectbox if box.label in ("Text A", "Text B")]}
    if lesson.page == "evaluation":
        return {key: at.session_state[key] for key in lesson.inputs}
    return {}


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson.page in ("layers", "similarity",
                                                                                    "evaluation")],
                         ids=lambda lesson: str(lesson.number))
def test_each_lesson_opens_the_view_it_teaches_by_button_and_by_link(lesson, lesson_context):
    from core.lessons.checks import CHECKS
    from core.settings import Settings

    by_button = app_test(PAGE)
    by_button.button(key=f"les_open_{lesson.number}").click().run()
    by_link = _opened_by_link(lesson, Settings())
    for at in (by_button, by_link):
        assert not at.exception
        view = _shown_view(at, lesson)
        if lesson.number == 3:  # "bank" chosen in every sentence, and the check is computed on those curves
            assert view["chips"] == ["bank"] * 3 and view["tab"] == "Token drift"
            check = CHECKS[lesson.check](lesson_context(lesson))
            first = [curve[0] for curve in view["token curves"].values()]
            assert min(first) == pytest.approx(check.numbers["layer 0 min"], abs=1e-4)
        elif lesson.number == 6:  # the sentence-drift tab, its curves the check's
            assert view["tab"] == "Sentence drift"
            check = CHECKS[lesson.check](lesson_context(lesson))
            assert view["sentence curves"]["S1 · S3"][-1] == pytest.approx(check.numbers["paraphrase last"], abs=1e-4)
            assert view["sentence curves"]["S1 · S2"][-1] == pytest.approx(check.numbers["literal last"], abs=1e-4)
        elif lesson.page == "similarity" and "sim_pair" in lesson.inputs:  # the named pair's explanation
            assert view["pair"] == [int(i) - 1 for i in str(lesson.inputs["sim_pair"]).split(",")]
        elif lesson.page == "evaluation":
            assert view == lesson.inputs


def _inputs_shown(at, lesson) -> dict:
    """The lesson's inputs as the opened page holds them (the explained pair as its two pickers show it)."""
    shown = {key: at.session_state[key] for key in lesson.inputs if key != "sim_pair"}
    if "sim_pair" in lesson.inputs:
        pickers = [box for box in at.main.selectbox if box.label in ("Text A", "Text B")]
        shown["sim_pair"] = ",".join(str(box.value + 1) for box in pickers)
    return shown


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: str(lesson.number))
def test_each_lessons_link_alone_opens_its_page_with_its_inputs(lesson):
    from core.settings import Settings

    at = _opened_by_link(lesson, Settings())
    assert not at.exception
    assert _inputs_shown(at, lesson) == lesson.inputs
    if lesson.model is not None:
        assert at.sidebar.selectbox(key="sb_model").value == lesson.model
