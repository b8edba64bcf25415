"""Layers' "What each layer knows" (AppTest): STS-B's genres probed at every layer, each number the one
core.evaluation.probing gives for the same texts (checked against the definitions in tests/core/analysis); a layer's
confusion matrix, wrong texts, mislabels (cleanlab's own list) tagged in one click, and a concept's direction; bad
labels said in one sentence."""

import numpy as np
import pytest

from core.analysis.concepts import mislabelled
from core.analysis.probes import checked_labels
from core.data.labels import TagStore, corpus_key
from core.data.rows import text_row_ids
from core.data.stsb import stsb_sample
from core.jobs import JOBS
from tests.conftest import app_test
from tests.figures import figure

PAGE = "views/layers.py"
SIZE = 150


@pytest.fixture(scope="module")
def opened():
    at = app_test(PAGE)
    at.session_state["layers_tab"] = "What each layer knows"
    at.run()
    at.number_input(key="layers_probe_size").set_value(SIZE).run()
    assert JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    return at


def test_every_layer_is_probed_beside_its_control_the_words_and_the_majority(opened):
    drawn = figure(opened, "layers_probe_figure")
    names = [trace.name for trace in drawn.data]
    assert names == ["probe, 95% interval over the folds", "probe", "control task (labels shuffled)",
                     "TF-IDF of the words", "majority class", "compression (online code)"]
    probe, control = (np.asarray(drawn.data[i].y, dtype=float) for i in (1, 2))
    assert list(drawn.data[1].x) == list(range(7))
    genres = stsb_sample(SIZE)["genre"]
    majority = genres.value_counts().max() / SIZE
    assert np.allclose(drawn.data[4].y, majority)
    assert (probe > control).all() and (probe > majority).all()  # genre is in every layer, more than chance
    facts = {metric.label: metric.value for metric in opened.metric}
    assert facts["Texts"] == f"{SIZE:,}" and facts["Majority class"] == f"{majority:.1%}"


def test_a_layers_confusion_wrong_texts_and_mislabels_are_the_probes(opened):
    confusion = figure(opened, "layers_probe_confusion")
    counts = np.asarray(confusion.data[0].z)
    assert counts.sum() == SIZE
    mislabels = next(frame.value for frame in opened.dataframe if "probability of its label" in frame.value.columns)
    assert set(mislabels["label"]) <= {"news", "captions", "forums"}
    # the list is cleanlab's for the probe's out-of-fold probabilities: its length says so
    from core.evaluation.probing import probe_texts
    from core.models.loading import load_model
    from core.settings import Settings

    sample = stsb_sample(SIZE)
    layer = opened.selectbox(key="layers_probe_layer").value
    report = probe_texts(load_model("all-MiniLM-L6-v2", "cpu"), sample["text"].tolist(), sample["genre"].tolist(),
                         Settings(), layers=[layer])
    labels = checked_labels(sample["genre"].tolist())
    expected = mislabelled(labels.codes, report.layer(layer).probe.probabilities)
    assert mislabels["text"].tolist() == [sample["text"].iloc[i] for i in expected]
    opened.button(key="layers_probe_tag").click().run()
    tags = TagStore().tags(corpus_key(text_row_ids(sample["text"])))
    assert tags["possible mislabel"] == frozenset(text_row_ids(sample["text"])[i] for i in expected)


def test_a_direction_separates_its_two_genres_beyond_random_ones(opened):
    opened.selectbox(key="layers_direction_first").set_value("captions").run()
    opened.selectbox(key="layers_direction_second").set_value("news").run()
    assert not opened.exception
    facts = {metric.label: metric.value for metric in opened.metric}
    assert float(facts["p against 100 random directions"]) < 0.05
    assert float(facts["Separation (Cohen's d, out of fold)"]) > 1
    assert len(figure(opened, "layers_direction_figure").data) == 3


def test_labels_that_cannot_be_probed_are_one_sentence():
    at = app_test(PAGE)
    at.session_state["layers_tab"] = "What each layer knows"
    at.run()
    at.radio(key="layers_probe_source").set_value("upload").run()
    rows = "".join(f"text number {i},only\n" for i in range(12))
    at.file_uploader(key="layers_probe_upload").upload("one.csv", ("text,label\n" + rows).encode(), "text/csv").run()
    assert not at.exception
    assert at.error[0].value.startswith("A probe tells classes apart, and there is one class, “only”")


@pytest.mark.parametrize("kind, said", [("sparse", "probed on its CSR rows, its output"),
                                        ("late interaction", "probed on the mean of each text's token vectors")])
def test_a_sparse_or_late_interaction_model_is_probed_on_its_output_and_says_so(sparse_folders, late_folders, kind,
                                                                                 said):
    from tests.conftest import app_test_on_model

    folder = sparse_folders["splade"] if kind == "sparse" else late_folders["colbert"]
    at = app_test_on_model(str(folder), PAGE)
    at.session_state["layers_tab"] = "What each layer knows"
    at.run()
    at.number_input(key="layers_probe_size").set_value(60).run()
    assert JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    assert any(said in box.value for box in at.info)
    assert len(figure(at, "layers_probe_figure").data[1].x) == 1  # one layer: the output
