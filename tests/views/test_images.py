"""The page "Pictures and words" (AppTest) with the tiny CLIP (random weights): the example pictures and their
captions in one heatmap whose values are sentence-transformers' own cosines, the modality gap, a text's nearest
pictures, zero-shot classification equal to the nearest prompt computed here, and a match explained over patches;
without a model, or with a text model, one sentence and no traceback."""

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from core.data.image_examples import EXAMPLES, example_corpus
from core.models.catalog import IMAGE_TEXT_ENTRIES
from tests.conftest import app_test
from tests.figures import figure

PAGE = "views/images.py"


def _unit(x):
    x = np.asarray(x, np.float64)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def opened(clip_folder):
    at = app_test(PAGE, img_model=str(clip_folder))
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.fixture(scope="module")
def reference(clip_folder):
    model = SentenceTransformer(str(clip_folder), device="cpu")
    corpus = example_corpus()
    return model, _unit(model.encode(list(corpus.images()))), _unit(model.encode([e.caption for e in EXAMPLES]))


def test_without_a_model_the_page_says_what_to_type_and_draws_nothing():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    assert any("Type a model of images and texts above" in info.value for info in at.info)
    assert not at.get("plotly_chart")
    offered = " ".join(caption.value for caption in at.main.caption)
    for entry in IMAGE_TEXT_ENTRIES:  # the catalog's models of images and texts, with their size and licence
        assert entry.facts is not None and f"{entry.repo} ({entry.facts.brief})" in offered


def test_a_text_model_is_refused_in_one_sentence(tmp_path):
    at = app_test(PAGE, img_model="all-MiniLM-L6-v2")
    assert not at.exception
    assert [e.value for e in at.error] == ["'all-MiniLM-L6-v2' is a dense model of texts alone; images need a model "
                                           "with an image modality, such as a CLIP or SigLIP model. Type another "
                                           "model above."]


def test_the_heatmap_holds_every_picture_and_caption_by_sentence_transformers_cosine(opened, reference):
    _, images, captions = reference
    drawn = figure(opened, "img_heatmap")
    both = np.vstack([images, captions])
    np.testing.assert_allclose(np.asarray(drawn.data[0].z, float), both @ both.T, atol=1e-5)
    assert len(drawn.layout.images) == len(EXAMPLES)  # a thumbnail above each picture's column


def test_the_gap_is_the_distance_between_the_centroids(opened, reference):
    _, images, captions = reference
    shown = {metric.label: metric.value for metric in opened.metric}
    assert shown["Distance between the centroids"] == f"{np.linalg.norm(images.mean(0) - captions.mean(0)):.3f}"


def test_zero_shot_is_the_nearest_prompt(opened, reference):
    model, images, _ = reference
    classes = [example.label for example in EXAMPLES]
    prompts = _unit(model.encode([f"a photo of a {label}" for label in classes]))
    predicted = np.argmax(images @ prompts.T, axis=1)
    shown = {metric.label: metric.value for metric in opened.metric}
    assert shown["Accuracy"] == f"{np.mean(predicted == np.arange(len(classes))):.0%}"
    assert np.asarray(figure(opened, "img_confusion").data[0].z).sum() == len(EXAMPLES)
    assert shown["Linear probe"] == "—"  # one picture a class: the probe needs five, and the page says so
    assert any("No linear probe beside it" in caption.value for caption in opened.caption)


def test_the_patches_of_a_match_sum_to_its_change(opened):
    drawn = figure(opened, "img_patches")
    patches = np.asarray(drawn.data[1].z, float)
    said = next(caption.value for caption in opened.caption if caption.value.startswith("Integrated gradients"))
    assert f"They sum to {patches.sum():.4f}" in said


def test_an_uploaded_picture_ranks_the_texts_by_sentence_transformers_cosine(clip_folder, reference):
    from core.data.image_examples import examples_folder

    _, images, captions = reference
    at = app_test(PAGE, img_model=str(clip_folder))
    chosen = EXAMPLES[2]
    at.file_uploader(key="img_query_file").set_value(
        (chosen.file, (examples_folder() / chosen.file).read_bytes(), "image/png")).run()
    assert not at.exception and not at.error, [e.value for e in at.exception]
    shown = next(frame.value for frame in at.dataframe if list(frame.value.columns) == ["text", "cosine"])
    expected = np.argsort(-(captions @ images[2]), kind="stable")[:len(shown)]
    assert shown["text"].tolist() == [EXAMPLES[i].caption for i in expected]
    np.testing.assert_allclose(shown["cosine"], (captions @ images[2])[expected], atol=1e-5)


def test_the_map_holds_every_picture_and_text_and_lights_the_querys_nearest_pictures(opened, reference):
    from tests.canvases import canvas

    model, images, captions = reference
    drawn = canvas(opened, "img_map")
    assert drawn.legend() == {"picture": len(EXAMPLES), "text": len(EXAMPLES)}
    query = _unit(model.encode(["a photo of a cat"]))[0]  # the page's query
    nearest = np.argsort(-(images @ query), kind="stable")[:5]
    assert drawn.highlight is not None and np.flatnonzero(drawn.highlight).tolist() == sorted(nearest.tolist())
    assert drawn.view["query"]["text"] == "a photo of a cat"
