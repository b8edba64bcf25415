"""The example pictures (scikit-image's bundled files, read without importing it) and pictures uploaded in the
app."""

import io
import zipfile

import pytest
from PIL import Image

from core.data.image_examples import EXAMPLES, example_captions, example_corpus
from core.data.images import NoImages, uploaded_images


def test_every_example_picture_is_read_with_its_label_and_caption():
    corpus = example_corpus()
    assert corpus.paths == [example.file for example in EXAMPLES] and corpus.said() is None
    assert corpus.labels == [example.label for example in EXAMPLES] and len(set(corpus.labels)) == len(EXAMPLES)
    assert len(example_captions()) == len(EXAMPLES) and len(set(corpus.row_ids)) == len(EXAMPLES)
    assert all(min(image.size) >= 32 for image in corpus.images())


def _png(colour) -> bytes:
    sink = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(sink, "PNG")
    return sink.getvalue()


def test_uploads_are_images_or_one_zip_never_both():
    corpus = uploaded_images([("a.png", _png((1, 1, 1))), ("b.txt", b"x"), ("c.png", _png((2, 2, 2)))])
    assert corpus.paths == ["a.png", "c.png"] and "1 file was skipped" in corpus.said()
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w") as archive:
        archive.writestr("cats/a.png", _png((3, 3, 3)))
    assert uploaded_images([("pets.zip", sink.getvalue())]).labels == ["cats"]
    with pytest.raises(NoImages, match="Upload one zip"):
        uploaded_images([("pets.zip", sink.getvalue()), ("a.png", _png((1, 1, 1)))])
