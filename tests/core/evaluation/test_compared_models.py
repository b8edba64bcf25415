"""CKA layer by layer of two models, against hidden states read with transformers and pooled here, and the refusal
of models whose vectors the measures do not compare."""

import numpy as np
import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from core.evaluation.compared_models import dense_only, layer_cka
from core.models.loading import load_model
from core.settings import Settings
from tests.core.analysis.test_agreement import numpy_cka

TEXTS = ["A man is playing a guitar.", "A woman slices an onion.", "The cat sleeps on the sofa.",
         "Stocks fell sharply on Monday.", "A child rides a bicycle.", "Rain is expected tomorrow.",
         "He plays the violin on stage.", "The market rallied after the news."]


def mean_pooled_layers(folder) -> list[np.ndarray]:
    """Every layer's mask-weighted mean of the token states, as transformers returns them."""
    tokenizer, network = AutoTokenizer.from_pretrained(str(folder)), AutoModel.from_pretrained(str(folder))
    batch = tokenizer(TEXTS, padding=True, return_tensors="pt")
    with torch.no_grad():
        states = network(**batch, output_hidden_states=True).hidden_states
    mask = batch["attention_mask"][..., None].float()
    return [((layer * mask).sum(1) / mask.sum(1)).numpy() for layer in states]


def test_layer_cka_equals_cka_of_transformers_hidden_states_pooled_by_hand(tiny_sentence_transformer_folder,
                                                                            retrained_tiny_folder):
    a = load_model(str(tiny_sentence_transformer_folder), "cpu")
    b = load_model(str(retrained_tiny_folder), "cpu")
    matrix = layer_cka((a, Settings(model_id=a.model_id)), (b, Settings(model_id=b.model_id)), TEXTS)
    a_layers, b_layers = mean_pooled_layers(tiny_sentence_transformer_folder), mean_pooled_layers(retrained_tiny_folder)
    assert matrix.shape == (3, 3)
    expected = np.array([[numpy_cka(x, y) for y in b_layers] for x in a_layers])
    np.testing.assert_allclose(matrix, expected, atol=1e-4)
    own = layer_cka((a, Settings(model_id=a.model_id)), None, TEXTS)
    np.testing.assert_allclose(np.diag(own), 1.0)
    np.testing.assert_allclose(own, [[numpy_cka(x, y) for y in a_layers] for x in a_layers], atol=1e-4)


def test_a_sparse_model_is_refused_in_one_sentence(splade):
    with pytest.raises(ValueError, match=r"is a sparse model: its vectors are [\d,]+ wide .* compare two dense "):
        dense_only(splade)
    with pytest.raises(ValueError, match="sparse model"):
        layer_cka((splade, Settings(model_id=splade.model_id)), None, TEXTS)
