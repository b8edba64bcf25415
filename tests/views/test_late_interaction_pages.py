"""A late-interaction model typed in the sidebar: the sidebar and Home say what its vectors are, and a page that
does not show such models yet says so in a sentence rather than treating it as a dense model."""

from core.analysis.late.alignment import vectors_sentence
from core.models.loading import load_model
from tests.conftest import app_test_on_model


def test_the_sidebar_and_home_say_what_a_late_interaction_models_vectors_are(late_folders):
    folder = str(late_folders["colbert"])
    at = app_test_on_model(folder, "views/home.py")
    assert not at.exception
    said = vectors_sentence(load_model(folder, "cpu"))
    assert any(said in caption.value for caption in at.sidebar.caption)
    facts = at.table[0].value
    assert facts.loc["vector", "value"] == "one 16-dimension vector per kept token (late interaction)"
    assert facts.loc["similarity", "value"] == "maxsim"


def test_lessons_with_a_late_interaction_model_check_each_light_lesson_on_the_model_it_reads(late_folders):
    """The lessons that read one vector per text are checked on the default dense model, and say so; those that read
    a token's vectors, the tokenizer or the parameters are checked on the sidebar's own model."""
    from core.lessons.checks import CHECKS, Context, stand_in
    from core.lessons.lessons import LESSONS
    from core.models.catalog import DEFAULT_MODEL_ID
    from core.settings import Settings

    folder = str(late_folders["colbert"])
    at = app_test_on_model(folder, "views/lessons.py")
    assert not at.exception
    late = load_model(folder, "cpu")
    stood_in = [caption for caption in at.main.caption if f"so it opens and is checked on {DEFAULT_MODEL_ID}" in
                caption.value]
    assert len(stood_in) == sum(stand_in(lesson.check, late) is not None for lesson in LESSONS) > 0
    for lesson in LESSONS:
        instead = stand_in(lesson.check, late)
        if lesson.heavy:
            continue
        model = late if instead is None else load_model(instead, "cpu")
        expected = CHECKS[lesson.check](Context(model, Settings(model_id=model.model_id),
                                                lambda model_id: load_model(model_id, "cpu"), inputs=lesson.inputs))
        shown = [box.value for box in (*at.success, *at.warning, *at.info) if expected.finding in box.value]
        assert shown, lesson.title
    assert stand_in("bank", late) == DEFAULT_MODEL_ID and stand_in("tokenizer", late) is None
