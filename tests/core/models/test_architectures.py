"""Every encoder architecture a user may type loads and works through the whole app: encoding (equal to
sentence-transformers on the same folder), every layer, attention maps, and the Similarity and Layers pages."""

import numpy as np
import pytest

from core.analysis.attention import attention_maps
from core.analysis.layers import sentence_vectors_by_layer
from core.encoding.encoder import encode
from core.models.loading import load_model
from tests.architectures import ARCHITECTURES, build
from tests.conftest import app_test_on_model

TEXTS = ["The bank by the river.", "She deposited her salary at the bank.", "A kitten sleeps on the rug."]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("architectures")
    return {name: build(name, root / name) for name in ARCHITECTURES}


@pytest.mark.parametrize("name", ARCHITECTURES)
def test_encoding_every_layer_and_attention(folders, name):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer

    model = load_model(str(folders[name]), "cpu")
    ours = encode(model, TEXTS).vectors
    transformer = Transformer(str(folders[name]))
    reference = SentenceTransformer(modules=[transformer, Pooling(transformer.get_embedding_dimension(), "mean")],
                                    device="cpu").encode(TEXTS)
    np.testing.assert_allclose(ours, reference, atol=1e-5)
    by_layer = sentence_vectors_by_layer(model, TEXTS, pooling="mean")
    assert by_layer.shape == (model.num_layers + 1, len(TEXTS), model.hidden_size)
    np.testing.assert_allclose(by_layer[-1], ours, atol=1e-6)
    maps = attention_maps(model, TEXTS[0])
    assert maps.weights.shape[:2] == (model.num_layers, model.network.config.num_attention_heads)
    np.testing.assert_allclose(maps.weights.sum(axis=-1), 1.0, atol=1e-4)


@pytest.mark.parametrize("name", ARCHITECTURES)
@pytest.mark.parametrize("page", ["views/similarity.py", "views/layers.py"])
def test_the_similarity_and_layers_pages_work_on_it(folders, name, page):
    at = app_test_on_model(str(folders[name]), page)
    assert not at.exception, at.exception[0].value if at.exception else ""
    assert at.get("plotly_chart")
