"""A late-interaction model's texts as map points: a text is the mean of its token vectors as encode_document keeps
them (sentence-transformers' own, averaged here), a typed query is placed the same way, and a token map holds every
kept token of a few texts with its text and position."""

import numpy as np
import pytest

from core.analysis.late.points import TokenPoints, token_labels, token_points
from core.analysis.layers import find_word
from core.encoding.encoder import encode_tokens
from core.kinds import kind_of
from core.maps.space import model_space, query_point
from core.models.loading import load_model
from core.settings import Settings
from tests.multivector import TEXTS


@pytest.fixture(scope="module")
def pair(late_folders):
    from sentence_transformers import MultiVectorEncoder

    folder = late_folders["colbert"]
    return load_model(str(folder), "cpu"), MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)


def test_a_text_is_the_mean_of_its_document_token_vectors_and_a_query_is_placed_alike(pair):
    model, reference = pair
    expected = np.stack([vectors.numpy().mean(axis=0) for vectors in reference.encode_document(TEXTS)])
    space = model_space(model, TEXTS, Settings())
    np.testing.assert_allclose(space.vectors, expected, atol=1e-6)
    np.testing.assert_allclose(query_point(model, TEXTS[2], Settings(), space), expected[2], atol=1e-6)
    centred = query_point(model, TEXTS[2], Settings(), space, centre=expected.mean(axis=0))
    shifted = expected[2] - expected.mean(axis=0)
    np.testing.assert_allclose(centred, shifted / np.linalg.norm(shifted), atol=1e-5)


def test_every_kept_token_is_a_point_with_its_text_and_position(pair):
    model, reference = pair
    points = token_points(model, TEXTS[:3])
    kept = reference.encode_document(TEXTS[:3])
    np.testing.assert_allclose(points.vectors, np.concatenate([v.numpy() for v in kept]), atol=1e-6)
    assert points.text.tolist() == [i for i, v in enumerate(kept) for _ in range(len(v))]
    assert points.position.tolist() == [p for v in kept for p in range(len(v))]
    assert len(points.tokens) == len(points.vectors)


def test_token_labels_name_a_shared_token_once_amid_its_points_and_every_token_when_zoomed_in():
    points = TokenPoints(np.zeros((5, 2)), np.array([0, 0, 1, 1, 2]), np.array([0, 1, 0, 1, 0]),
                         ("[CLS]", "cat", "[CLS]", "dog", "cat"))
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 3.0], [3.0, 5.0]])
    labels = token_labels(points, coords)
    assert [label for label in labels if label[3] == 0] == [(1.0, 0.0, "[CLS]", 0, 2), (2.0, 3.0, "cat", 0, 2)]
    assert [(x, y, text) for x, y, text, level, _ in labels if level == 1] == [
        (float(x), float(y), token) for (x, y), token in zip(coords, points.tokens)]


def test_layers_follow_a_late_models_token_states_and_keep_no_sentence_vector(pair):
    """Token drift reads the transformer's hidden states, as transformers computes them here."""
    import torch

    model, _ = pair
    texts = ["The bank raised its rates.", "We sat on the river bank."]
    states = encode_tokens(model, texts)
    chosen = [find_word(ts, "bank") for ts in states]
    drift = kind_of(model).drift(model, states, chosen, pooling="default")
    assert np.isnan(drift.sentence).all() and drift.by_layer.shape[2] == 0
    hidden = []
    for text in texts:
        encoded = model.tokenizer(text, return_tensors="pt")
        with torch.no_grad():
            layers = model.network(**encoded, output_hidden_states=True).hidden_states
        position = model.tokenizer.convert_ids_to_tokens(encoded["input_ids"][0]).index("bank")
        hidden.append(np.stack([layer[0, position].numpy() for layer in layers]))
    expected = [float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)) for a, b in zip(*hidden)]
    np.testing.assert_allclose(drift.token[0], expected, atol=1e-5)
