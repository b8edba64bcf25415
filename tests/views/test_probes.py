"""The page "What each layer knows" (AppTest): STS-B's genres probed at every layer, each number the one
core.evaluation.probing gives for the same texts (checked against the definitions in tests/core/analysis), beside the
architecture untrained and the labels shuffled; a layer's confusion matrix, wrong texts, mislabels (cleanlab's own
list) tagged in one click, kept by the texts and linked to the Map page's sample that holds them; a concept's
direction; a file with blank labels and a class of one repeated text (../shared/data/messy/) probed on the rest,
both said; bad labels said in one sentence."""

import numpy as np
import pytest

from core.analysis.concepts import mislabelled
from core.analysis.probes import checked_labels
from core.data.labels import TEXTS, TagStore
from core.data.rows import text_row_ids
from core.data.stsb import stsb_sample
from core.jobs import JOBS
from tests.conftest import app_test
from tests.figures import figure
from tests.messy import messy

PAGE = "views/probes.py"
SIZE = 150


@pytest.fixture(scope="module")
def opened():
    at = app_test(PAGE)
    at.run()
    at.number_input(key="probe_size").set_value(SIZE).run()
    assert JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    return at


def test_every_layer_is_probed_beside_the_untrained_architecture_the_words_chance_and_the_majority(opened):
    drawn = figure(opened, "probe_figure")
    names = [trace.name for trace in drawn.data]
    assert names == ["probe, 95% interval over the folds", "probe", "untrained (random weights)",
                     "TF-IDF of the words", "labels shuffled (chance)", "majority class", "compression (online code)"]
    probe, untrained, shuffled = (np.asarray(drawn.data[i].y, dtype=float) for i in (1, 2, 4))
    assert list(drawn.data[1].x) == list(range(7))
    genres = stsb_sample(SIZE)["genre"]
    majority = genres.value_counts().max() / SIZE
    assert np.allclose(drawn.data[5].y, majority)
    assert (probe > shuffled).all() and (probe > majority).all()  # genre is in every layer, more than chance
    assert (probe[1:] > untrained[1:]).all()  # training added something at every layer above the embeddings
    facts = {metric.label: metric.value for metric in opened.metric}
    assert facts["Labelled texts"] == f"{SIZE:,}" and facts["Majority class"] == f"{majority:.1%}"


def test_a_layers_confusion_wrong_texts_and_mislabels_are_the_probes(opened):
    confusion = figure(opened, "probe_confusion")
    counts = np.asarray(confusion.data[0].z)
    assert counts.sum() == SIZE
    mislabels = next(frame.value for frame in opened.dataframe if "probability of its label" in frame.value.columns)
    assert set(mislabels["label"]) <= {"news", "captions", "forums"}
    # the list is cleanlab's for the probe's out-of-fold probabilities: its length says so
    from core.evaluation.probing import probe_texts
    from core.models.loading import load_model
    from core.settings import Settings

    sample = stsb_sample(SIZE)
    layer = opened.selectbox(key="probe_layer").value
    report = probe_texts(load_model("all-MiniLM-L6-v2", "cpu"), sample["text"].tolist(), sample["genre"].tolist(),
                         Settings(), layers=[layer])
    labels = checked_labels(sample["genre"].tolist(), sample["text"].tolist())
    expected = mislabelled(labels.codes, report.layer(layer).probe.probabilities)
    assert mislabels["text"].tolist() == [sample["text"].iloc[i] for i in expected]
    opened.button(key="probe_tag").click().run()
    tags = TagStore().tags(TEXTS)
    assert tags["possible mislabel"] == frozenset(text_row_ids(sample["text"])[i] for i in expected)
    # the link says where the tag shows, and the Map page's default sample holds every text tagged
    link = next(link for link in opened.get("page_link") if "Embedding map" in link.proto.label)
    assert "STS-B sample of 1,500 sentences holds all of them" in link.proto.label
    assert set(sample["text"]) <= set(stsb_sample(1500)["text"])


def test_a_direction_separates_its_two_genres_beyond_random_ones(opened):
    opened.selectbox(key="probe_direction_first").set_value("captions").run()
    opened.selectbox(key="probe_direction_second").set_value("news").run()
    assert not opened.exception
    facts = {metric.label: metric.value for metric in opened.metric}
    assert float(facts["p against 100 random directions"]) < 0.05
    assert float(facts["Separation (Cohen's d, out of fold)"]) > 1
    assert len(figure(opened, "probe_direction_figure").data) == 3


def test_blank_labels_and_a_class_of_one_repeated_text_are_left_out_and_said():
    at = app_test(PAGE)
    at.run()
    at.radio(key="probe_source").set_value("upload").run()
    data = messy("labelled.csv").read_bytes()
    at.file_uploader(key="probe_upload").upload("labelled.csv", data, "text/csv").run()
    at.selectbox(key="probe_label").set_value("genre").run()
    assert not at.exception and not at.error
    said = " ".join(box.value for box in at.info)
    assert "34 of the 370 rows have a blank label" in said and "“forums” has 1 different text" in said


def test_labels_that_cannot_be_probed_are_one_sentence():
    at = app_test(PAGE)
    at.run()
    at.radio(key="probe_source").set_value("upload").run()
    rows = "".join(f"text number {i},only\n" for i in range(12))
    at.file_uploader(key="probe_upload").upload("one.csv", ("text,label\n" + rows).encode(), "text/csv").run()
    assert not at.exception
    assert at.error[0].value.startswith("A probe tells classes apart, and there is one class, “only”")


@pytest.mark.parametrize("kind, said", [("sparse", "probed on its CSR rows, its output"),
                                        ("late interaction", "probed on the mean of each text's token vectors")])
def test_a_sparse_or_late_interaction_model_is_probed_on_its_output_and_says_so(sparse_folders, late_folders, kind,
                                                                                 said):
    from tests.conftest import app_test_on_model

    folder = sparse_folders["splade"] if kind == "sparse" else late_folders["colbert"]
    at = app_test_on_model(str(folder), PAGE)
    at.run()
    at.number_input(key="probe_size").set_value(60).run()
    assert JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    assert any(said in box.value for box in at.info)
    assert any("No untrained baseline" in box.value for box in at.info)
    assert len(figure(at, "probe_figure").data[1].x) == 1  # one layer: the output
