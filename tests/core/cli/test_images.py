"""The commands with a model of images and texts (the tiny CLIP of tests/image_text.py, random weights): every
vector equal to sentence-transformers' own `encode` of the same images and texts, every ranking, accuracy and gap
equal to an independent computation from those vectors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from sentence_transformers import SentenceTransformer
from sklearn.metrics import confusion_matrix

from core.cli import main
from core.models.catalog import ModelUnavailable
from core.models.image_text import ImagesAndTexts, load_image_text
from core.models.loading import load_model
from tests.image_text import build_clip, draw_folder


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    return draw_folder(tmp_path_factory.mktemp("drawn"))


@pytest.fixture(scope="module")
def reference(clip_folder):
    return SentenceTransformer(str(clip_folder), device="cpu")


def _images(folder, paths):
    return [Image.open(folder / path).convert("RGB") for path in paths]


def _unit(x):
    x = np.asarray(x, np.float64)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_embed_writes_a_row_per_image_with_sentence_transformers_own_vectors(clip_folder, drawn, reference,
                                                                             tmp_path, capsys):
    (drawn / "readme.txt").write_text("about these pictures")
    output = tmp_path / "images.parquet"
    assert main(["embed", "--model", str(clip_folder), "--input", str(drawn), "--output", str(output)]) == 0
    assert "1 file was skipped" in capsys.readouterr().err
    table = pd.read_parquet(output)
    assert list(table.columns) == ["row_id", "image", "label", "vector"] and len(table) == 18
    assert table["label"].tolist() == [path.split("/")[0] for path in table["image"]]
    theirs = reference.encode(_images(drawn, table["image"]))
    np.testing.assert_allclose(np.stack(table["vector"]), theirs, atol=1e-5)


def test_a_siglip_embeds_pictures_and_texts_as_sentence_transformers_does(siglip_folder, drawn, tmp_path):
    """SigLIP, a model of images and texts of another architecture (its tokenizer sentencepiece's), asked of its
    modalities like CLIP: each picture's and each text's vector is sentence-transformers' own."""
    reference = SentenceTransformer(str(siglip_folder), device="cpu")
    assert reference.modalities == ["text", "image"]
    assert main(["embed", "--model", str(siglip_folder), "--input", str(drawn), "--output",
                 str(tmp_path / "images.parquet")]) == 0
    table = pd.read_parquet(tmp_path / "images.parquet")
    np.testing.assert_allclose(np.stack(table["vector"]), reference.encode(_images(drawn, table["image"])), atol=1e-5)
    texts = ["a red circle", "a photo of a green circle", ""]
    (tmp_path / "texts.txt").write_text("\n".join(texts) + "\n")
    assert main(["embed", "--model", str(siglip_folder), "--input", str(tmp_path / "texts.txt"), "--output",
                 str(tmp_path / "texts.npy")]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "texts.npy"), reference.encode(texts), atol=1e-5)


def test_a_text_file_is_embedded_into_the_same_space_by_the_text_tower(clip_folder, reference, tmp_path):
    texts = ["a red circle", "a blue circle", "a red circle", ""]
    source = tmp_path / "texts.txt"
    source.write_text("\n".join(texts) + "\n")
    output = tmp_path / "texts.npy"
    assert main(["embed", "--model", str(clip_folder), "--input", str(source), "--output", str(output)]) == 0
    np.testing.assert_allclose(np.load(output), reference.encode(texts), atol=1e-5)


def test_a_plain_transformers_clip_folder_loads_as_sentence_transformers_loads_it(tmp_path, reference, drawn):
    plain = build_clip(tmp_path, sentence_transformers=False)
    ours = load_image_text(str(plain), "cpu")
    theirs = SentenceTransformer(str(plain), device="cpu")
    images = _images(drawn, ["red/0.png", "blue/1.png"])
    np.testing.assert_allclose(ours.encode_images(images, batch_size=1), theirs.encode(images), atol=1e-5)
    np.testing.assert_allclose(ours.encode_texts(["a dog"]), theirs.encode(["a dog"]), atol=1e-5)


def test_search_ranks_a_folder_by_cosine_to_the_query(clip_folder, drawn, reference, capsys):
    assert main(["search", "--model", str(clip_folder), "--input", str(drawn), "--query", "a red circle", "--k", "3",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    paths = sorted(str(path.relative_to(drawn)) for path in drawn.rglob("*.png"))
    scores = (_unit(reference.encode(["a red circle"])) @ _unit(reference.encode(_images(drawn, paths))).T)[0]
    best = np.argsort(-scores, kind="stable")[:3]
    assert [hit["image"] for hit in printed["results"]] == [paths[i] for i in best]
    np.testing.assert_allclose([hit["score"] for hit in printed["results"]], scores[best], atol=1e-5)
    assert (printed["k"], printed["images"]) == (3, 18)


def test_zero_shot_is_the_nearest_prompt_and_the_gap_is_the_centroids_distance(clip_folder, drawn, reference,
                                                                             capsys):
    assert main(["evaluate", "zero-shot", "--model", str(clip_folder), "--input", str(drawn), "--template",
                 "a drawing of a {label} disc"]) == 0
    printed = json.loads(capsys.readouterr().out)
    paths = sorted(str(path.relative_to(drawn)) for path in drawn.rglob("*.png"))
    labels = [path.split("/")[0] for path in paths]
    classes = list(dict.fromkeys(labels))
    assert printed["classes"] == classes
    assert printed["prompts"] == [f"a drawing of a {name} disc" for name in classes]
    images, prompts = _unit(reference.encode(_images(drawn, paths))), _unit(reference.encode(printed["prompts"]))
    predicted = np.argmax(images @ prompts.T, axis=1)
    truth = np.array([classes.index(label) for label in labels])
    assert printed["accuracy"] == pytest.approx(float(np.mean(predicted == truth)))
    assert printed["confusion"] == confusion_matrix(truth, predicted, labels=range(3)).tolist()
    assert printed["modality_gap"] == pytest.approx(np.linalg.norm(images.mean(0) - prompts.mean(0)), abs=1e-5)
    centred_images, centred_prompts = _unit(images - images.mean(0)), _unit(prompts - prompts.mean(0))
    closed = np.argmax(centred_images @ centred_prompts.T, axis=1)
    assert printed["accuracy_gap_closed"] == pytest.approx(float(np.mean(closed == truth)))
    assert 0 <= printed["probe_accuracy"] <= 1 and printed["majority"] == pytest.approx(1 / 3)


def test_images_at_the_root_have_no_label_and_are_left_out_of_zero_shot_and_said(clip_folder, drawn, tmp_path,
                                                                               capsys):
    import shutil

    folder = shutil.copytree(drawn, tmp_path / "some-unlabelled")
    shutil.copy(folder / "red" / "0.png", folder / "loose.png")
    assert main(["evaluate", "zero-shot", "--model", str(clip_folder), "--input", str(folder)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["images"] == 18 and json.loads(out.out)["unlabelled"] == 1
    assert "1 of the 19 images have no label and were left out." in out.err


def test_the_app_refuses_a_model_of_images_and_texts_in_one_sentence_naming_the_commands(clip_folder):
    with pytest.raises(ImagesAndTexts, match=r"embeds images and texts in one space \(its modalities: text, image\)"):
        load_model(str(clip_folder), "cpu")
    with pytest.raises(ModelUnavailable, match="is a dense model of texts alone; images need a model with an image"):
        load_image_text("all-MiniLM-L6-v2", "cpu")


@pytest.mark.parametrize(("argv", "said"), [
    (["embed", "--model", "all-MiniLM-L6-v2", "--output", "{tmp}/x.parquet"],
     "is a dense model of texts alone; images need a model with an image modality"),
    (["embed", "--model", "{clip}", "--output", "{tmp}/x.csv"], "Image vectors are written as .parquet"),
    (["embed", "--model", "{clip}", "--output", "{tmp}/x.parquet", "--layer", "1", "--normalize"],
     "--layer and --normalize do not apply to a model of images and texts"),
    (["evaluate", "zero-shot", "--model", "{clip}", "--template", "a photo"], "has no {label} to put"),
    (["search", "--model", "{clip}", "--query", "x", "--corpus", "{tmp}/c.txt"], "Give --input (images) or --corpus"),
])
def test_bad_requests_are_one_sentence_and_write_nothing(argv, said, clip_folder, drawn, tmp_path, capsys):
    filled = [arg.format(tmp=tmp_path, clip=clip_folder) for arg in argv]
    after = filled.index("--model") + 2
    assert main([*filled[:after], "--input", str(drawn), *filled[after:]]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_a_folder_without_images_writes_nothing(clip_folder, tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("x")
    assert main(["embed", "--model", str(clip_folder), "--input", str(tmp_path / "in"), "--output",
                 str(tmp_path / "out.parquet")]) == 1
    assert "holds no image that can be read: 1 file was skipped" in capsys.readouterr().err
    assert not (tmp_path / "out.parquet").exists()
