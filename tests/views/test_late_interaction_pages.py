"""A late-interaction model typed in the sidebar: the sidebar and Home say what its vectors are, and a page that
does not show such models yet says so in a sentence rather than treating it as a dense model."""

from core.analysis.late_interaction import vectors_sentence
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
