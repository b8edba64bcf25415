import pytest

from core.data.stsb import stsb_corpus, stsb_sentences
from core.evaluation.retrieval import paraphrase_task
from core.lessons.lessons import BANK, LESSONS
from core.models.loading import load_model
from tests.conftest import app_test
from tests.views.cache_fill import prefill

PAGE = "views/lessons.py"
OPENED = {"model": "views/model.py", "layers": "views/layers.py", "similarity": "views/similarity.py",
          "evaluation": "views/evaluation.py", "finetune": "views/finetune.py"}


@pytest.fixture(scope="module", autouse=True)
def cached(minilm):
    """Benchmark embeddings stand in as seeded random vectors, so the heavy checks run in seconds."""
    sentences = stsb_sentences("dev")
    prefill(minilm, sentences, seed=1)
    prefill(load_model("untrained-bert", "cpu"), sentences, seed=2)
    task = paraphrase_task("dev")
    for seed, pooling in enumerate(("default", "mean", "cls", "max")):
        prefill(minilm, stsb_corpus(), pooling=pooling, seed=10 + seed)
        prefill(minilm, task.queries, pooling=pooling, seed=20 + seed)


def _verdicts(at) -> list[str]:
    return [box.value for box in (*at.success, *at.warning, *at.info) if "this model" in box.value
            or "No fine-tuned model" in box.value]


def test_the_page_lists_every_lesson_and_checks_the_light_ones_at_once():
    at = app_test(PAGE)
    assert not at.exception
    assert [e.label for e in at.expander] == [f"{lesson.number}. {lesson.title}" for lesson in LESSONS]
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
