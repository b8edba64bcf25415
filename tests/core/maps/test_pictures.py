"""The map of pictures and texts (core.maps.pictures) on the example pictures, with texts that repeat and seeded
random vectors (a map needs no model): its rows, its positions against scikit-learn's PCA of the unit vectors, the
pictures a query lights against the cosine computed here, and its HTML file's thumbnails."""

import base64
import io
import json
import re

import numpy as np
import pytest
from PIL import Image
from sklearn.decomposition import PCA

from core.analysis.map.projection import ProjectionParams
from core.data.image_examples import example_corpus
from core.data.rows import text_row_ids
from core.maps.html import DATA_ID, map_html
from core.maps.pictures import LABEL, MODALITY, NO_LABEL, PICTURE, TEXT, picture_map

TEXTS = ["a photo of a cat", "a red circle", "a photo of a cat", "a cup of coffee"]  # a text repeats


@pytest.fixture(scope="module")
def corpus():
    return example_corpus()


@pytest.fixture(scope="module")
def vectors(corpus):
    rng = np.random.default_rng(7)
    return rng.normal(size=(len(corpus), 16)) * 3, rng.normal(size=(len(TEXTS), 16))


def _unit(x):
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_pictures_come_first_then_the_texts_each_with_its_row_id_and_modality(corpus, vectors):
    found = picture_map(corpus, *vectors[:1], TEXTS, vectors[1], ProjectionParams("PCA"), model_id="m")
    frame = found.points.frame
    assert frame["row_id"].tolist() == [*corpus.row_ids, *text_row_ids(TEXTS)]
    assert frame["text"].tolist() == [*corpus.paths, *TEXTS]
    assert frame[MODALITY].tolist() == [PICTURE] * len(corpus) + [TEXT] * len(TEXTS)
    assert [found.is_picture(row) for row in range(len(frame))] == [True] * len(corpus) + [False] * len(TEXTS)
    assert found.points.title == f"PCA of {len(corpus)} pictures and {len(TEXTS)} texts, m"
    assert found.hover(0).endswith(f"\n{corpus.paths[0]}") and "modality: picture" in found.hover(0)


def test_the_positions_are_pca_of_the_unit_vectors(corpus, vectors):
    images, texts = vectors
    found = picture_map(corpus, images, TEXTS, texts, ProjectionParams("PCA"), model_id="m")
    expected = PCA(n_components=2).fit_transform(_unit(np.vstack([images, texts])))
    for axis in range(2):  # an axis's sign is arbitrary
        assert abs(np.corrcoef(found.points.coords[:, axis], expected[:, axis])[0, 1]) == pytest.approx(1, abs=1e-5)


def test_a_query_lights_its_nearest_pictures_by_the_cosine_and_never_a_text(corpus, vectors):
    images, texts = vectors
    query = texts[1] + 0.1  # near a text: the texts must still not be lit
    found = picture_map(corpus, images, TEXTS, texts, ProjectionParams("PCA"), query=("a red circle", query), top=3,
                        model_id="m")
    expected = np.argsort(-(_unit(images) @ (query / np.linalg.norm(query))), kind="stable")[:3]
    assert found.lit is not None and found.lit.tolist() == expected.tolist()
    assert found.points.query is not None and list(found.points.query.neighbours) == expected.tolist()
    drawn = found.canvas()
    assert drawn.view["highlighted"] == 3 and drawn.view["query"]["text"] == "a red circle"


def test_coloured_by_label_the_texts_and_unlabelled_pictures_say_so(corpus, vectors):
    found = picture_map(corpus, *vectors[:1], TEXTS, vectors[1], ProjectionParams("PCA"), colour_by=LABEL,
                        model_id="m")
    values = list(found.points.colouring.values)
    assert values == [label or NO_LABEL for label in corpus.labels] + [NO_LABEL] * len(TEXTS)
    with pytest.raises(ValueError, match="coloured by 'modality' or 'label'"):
        picture_map(corpus, *vectors[:1], TEXTS, vectors[1], ProjectionParams("PCA"), colour_by="size", model_id="m")


def test_a_map_of_pictures_alone_has_no_text(corpus, vectors):
    found = picture_map(corpus, vectors[0], [], np.zeros((0, 16)), ProjectionParams("PCA"), model_id="m")
    assert len(found.points.frame) == len(corpus) == found.pictures


def test_the_html_file_holds_each_pictures_thumbnail_and_none_for_a_text(corpus, vectors):
    found = picture_map(corpus, *vectors[:1], TEXTS, vectors[1], ProjectionParams("PCA"), model_id="m")
    page = map_html(found.canvas(), found.file_rows(corpus))
    island = re.search(f'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page, re.S)
    assert island is not None
    thumbnails = json.loads(island.group(1))["thumbnails"]
    assert thumbnails[len(corpus):] == [None] * len(TEXTS)
    for row, encoded in enumerate(thumbnails[:len(corpus)]):
        small = Image.open(io.BytesIO(base64.b64decode(encoded)))
        assert small.format == "JPEG" and max(small.size) <= 96
        whole = corpus.image(row)
        assert abs(small.size[0] / small.size[1] - whole.size[0] / whole.size[1]) < 0.1  # the picture, not a crop


def test_t_sne_of_a_map_smaller_than_its_perplexity_needs_lowers_it(corpus, vectors):
    found = picture_map(corpus, *vectors[:1], TEXTS, vectors[1], ProjectionParams("t-SNE"), model_id="m")
    assert found.points.coords.shape == (len(corpus) + len(TEXTS), 2)  # 30 would need 91 points
    assert np.isfinite(found.points.coords).all()
