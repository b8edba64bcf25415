"""`Pictures` in a notebook with the tiny CLIP: the vectors of PIL images, of paths and of texts equal
sentence-transformers' `encode`; the page's figures; mixed or bad input in one sentence."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from sentence_transformers import SentenceTransformer

from core.models.catalog import ModelUnavailable
from core.notebook.pictures import Pictures
from tests.image_text import draw_folder


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> list[Path]:
    return sorted(draw_folder(tmp_path_factory.mktemp("drawn"), per_class=2).rglob("*.png"))


def test_pictures_and_texts_are_embedded_as_sentence_transformers_encodes_them(clip_folder, drawn):
    pictures, reference = Pictures(str(clip_folder), device="cpu"), SentenceTransformer(str(clip_folder), device="cpu")
    opened = [Image.open(path).convert("RGB") for path in drawn]
    np.testing.assert_allclose(pictures.embed(drawn), reference.encode(opened), atol=1e-5)
    np.testing.assert_allclose(pictures.embed(opened), reference.encode(opened), atol=1e-5)
    np.testing.assert_allclose(pictures.embed(["a red disc"]), reference.encode(["a red disc"]), atol=1e-5)
    with pytest.raises(ValueError, match="not both"):
        pictures.embed([drawn[0], "a red disc"])


def test_the_figures_of_the_page(clip_folder, drawn):
    pictures = Pictures(str(clip_folder), device="cpu")
    figure = pictures.space(drawn[:3], ["a", "b"])
    assert np.asarray(figure.data[0].z).shape == (5, 5) and figure.layout.title.text.startswith("modality gap")
    assert len(pictures.retrieval(drawn[:2], ["a red disc", "a blue disc"])) == 4
    with pytest.raises(ValueError, match="Give one caption a picture"):
        pictures.retrieval(drawn[:3], ["a"])
    found = pictures.zero_shot(drawn, [path.parent.name for path in drawn])
    assert found.confusion.sum() == len(drawn) and Pictures.confusion_figure(found).data
    assert pictures.why(drawn[0], "a red disc", steps=8).data[1].z is not None


def test_a_text_model_is_refused_in_one_sentence():
    with pytest.raises(ModelUnavailable, match="of texts alone"):
        Pictures("all-MiniLM-L6-v2", device="cpu")


def test_the_map_hovers_a_pictures_thumbnail_lights_the_querys_nearest_and_saves_them(clip_folder, drawn, tmp_path):
    pytest.importorskip("anywidget", reason="the map widget is the notebook extra: `make notebook-extra`")
    from tests.core.notebook.test_map_widget import wired

    reference = SentenceTransformer(str(clip_folder), device="cpu")
    texts = ["a red disc", "a blue square", "a red disc"]  # a text repeats
    widget = Pictures(str(clip_folder), device="cpu").map(drawn, texts, query="a red disc")
    images = reference.encode([Image.open(path).convert("RGB") for path in drawn])
    query = reference.encode(["a red disc"])[0]
    cosines = images @ query / np.linalg.norm(images, axis=1) / np.linalg.norm(query)
    lit = np.flatnonzero(widget._highlight).tolist()
    assert lit == sorted(np.argsort(-cosines, kind="stable")[:5].tolist())  # pictures only, never a text
    wire = wired(widget)
    for row in (0, len(drawn)):  # a picture, then a text
        widget._handle_msg({"content": {"data": {"method": "custom", "content": {"hover": row}}}, "buffers": []})
    (picture, _), (text, _) = wire.sent
    assert picture["content"]["hover"]["image"].startswith("data:image/jpeg;base64,")
    assert str(drawn[0]) in picture["content"]["hover"]["text"]
    assert text["content"]["hover"]["image"] is None and "a red disc" in text["content"]["hover"]["text"]
    saved = widget.save_html(tmp_path / "pictures.html").read_text(encoding="utf-8")
    assert saved.count("/9j/") == len(drawn)  # each picture's JPEG in base64, once
