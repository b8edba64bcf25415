"""Why an image matches a text (the tiny CLIP and the tiny SigLIP, random weights): the score is sentence-transformers'
own cosine, the patches' attributions sum to its change from the baseline (completeness within 1 %), and equal
integrated gradients computed here by hand with autograd."""

import numpy as np
import pytest
import torch
from PIL import Image
from sentence_transformers import SentenceTransformer, util

from core.analysis.image_attribution import attribute_image, patch_layer
from core.models.image_text import ImageTextModel, load_image_text
from tests.image_text import draw_folder


@pytest.fixture(scope="module")
def clip(clip_folder):
    return load_image_text(str(clip_folder), "cpu")


@pytest.fixture(scope="module")
def picture(tmp_path_factory):
    return Image.open(draw_folder(tmp_path_factory.mktemp("drawn"), per_class=1) / "red" / "0.png").convert("RGB")


@pytest.mark.parametrize("folder", ["clip_folder", "siglip_folder"])
def test_the_score_is_sentence_transformers_cosine_and_the_patches_sum_to_its_change(folder, picture, request):
    folder = request.getfixturevalue(folder)
    found = attribute_image(load_image_text(str(folder), "cpu"), picture, "a red circle", steps=50)
    reference = SentenceTransformer(str(folder), device="cpu")
    cosine = float(util.cos_sim(reference.encode([picture]), reference.encode(["a red circle"]))[0, 0])
    assert found.score == pytest.approx(cosine, abs=1e-5)
    assert abs(found.gap) <= 0.01 * abs(found.change)
    assert found.patches.shape == (4, 4) and found.seen.shape == (32, 32, 3)  # 32 × 32 pixels in 8 × 8 patches


def test_the_attributions_equal_integrated_gradients_by_hand(clip, picture):
    found = attribute_image(clip, picture, "a blue circle", steps=50)
    encoder, layer = clip.encoder, patch_layer(clip)
    features = encoder.preprocess([picture])
    target = torch.as_tensor(clip.encode_texts(["a blue circle"]))
    with torch.no_grad():
        embedded = layer(features["pixel_values"])
    steps = 400
    total = torch.zeros_like(embedded)
    for alpha in (np.arange(steps) + 0.5) / steps:  # the midpoint rule, from the zero embedding to the image's
        point = (alpha * embedded).requires_grad_(True)
        hook = layer.register_forward_hook(lambda module, args, output, point=point: point)
        try:
            vector = encoder(dict(features))["sentence_embedding"]
            torch.nn.functional.cosine_similarity(vector, target)[0].backward()
        finally:
            hook.remove()
        total += point.grad
    by_hand = (embedded * total / steps)[0].sum(0).numpy()
    np.testing.assert_allclose(found.patches, by_hand, atol=2e-4)


def test_a_model_without_a_patch_embedding_is_one_sentence():
    with pytest.raises(ValueError, match="has no single patch embedding layer"):
        patch_layer(ImageTextModel("some-model", torch.nn.Linear(2, 2), ""))
