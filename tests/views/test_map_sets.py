"""The Map page's "Two sets: has new data drifted?" (AppTest): both sets on one map, each row coloured by its set;
below it the numbers core.evaluation.set_drift gives for the same texts (tested against independent computations in
tests/core), the clusters the new set over-represents with their keywords, and the texts new or gone; two halves of
one genre found not to differ; the same set twice refused in one sentence."""

from __future__ import annotations

import pytest

from core.data.stsb import stsb_set
from core.evaluation.set_drift import drift_sets
from core.jobs import JOBS
from core.models.loading import load_model
from core.settings import Settings
from tests.canvases import canvas
from tests.conftest import app_test

PAGE = "views/map.py"
SIZE = 120


def opened(reference: str, current: str):
    at = app_test(PAGE, map_source="sets", map_set_size=str(SIZE), map_set_reference=reference,
                  map_set_new=current)
    while JOBS.unfinished():  # the map's vectors, then the comparison
        assert JOBS.wait_idle(600)
        at.run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def drifted():
    return opened("news", "forums")


def test_both_sets_are_on_one_map_each_in_its_own_colour(drifted):
    drawn = canvas(drifted)
    assert drawn.legend() == {"new": SIZE, "reference": SIZE}
    assert drawn.view["legend"]["title"] == "set"


def test_the_numbers_are_the_comparisons_of_the_same_texts(drifted):
    report = drift_sets(load_model("all-MiniLM-L6-v2", "cpu"), stsb_set("news", SIZE), stsb_set("forums", SIZE),
                        Settings(model_id="all-MiniLM-L6-v2"))
    facts = {metric.label: metric.value for metric in drifted.metric}
    assert facts["Domain classifier AUC"] == f"{report.separability.auc:.2f}"
    assert facts["MMD²"] == f"{report.mmd.mmd2:.4f}" and report.mmd.p_value > 0
    assert facts["p-value"] == ("< 0.001" if report.mmd.p_value < 0.001 else f"{report.mmd.p_value:.3f}")
    assert facts["Centroids' cosine"] == f"{report.centroid_cosine:.3f}"
    assert any(info.value.startswith("The new set has drifted: ") for info in drifted.info)
    over = next(text.value for text in drifted.markdown if text.value.startswith("*The new set over-represents*"))
    listed = report.represented(more=True)
    assert len(listed) and all(f"**{keywords}**" in over for keywords in listed["keywords"])
    new = next(frame.value for frame in drifted.dataframe if frame.value.columns.tolist() == ["text", "distance"])
    assert new["text"].tolist() == report.new_topics()["text"].tolist()


def test_two_random_halves_of_the_captions_are_not_said_to_differ():
    at = opened("captions_a", "captions_b")
    assert any(info.value.startswith("No drift found: ") for info in at.info)


def test_the_same_set_twice_is_refused_in_one_sentence():
    at = opened("news", "news")
    assert [error.value for error in at.error] == [
        "The two sets hold the same texts: give a new set to compare with the reference."]
