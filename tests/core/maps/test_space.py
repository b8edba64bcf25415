"""A map's space as each kind gives it, against sentence-transformers' own vectors and scikit-learn's reduction: one
vector a row, a repeated text encoded once but kept on every row, and a query placed in the same space."""

import numpy as np
import pytest
from sklearn.decomposition import TruncatedSVD

from core.data.rows import distinct
from core.kinds import kind_of
from core.maps.space import model_space, query_point
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder
from core.settings import Settings

TEXTS = ["A man is playing a guitar.", "A woman slices an onion.", "A man is playing a guitar.",
         "The cat sleeps on the sofa.", "Stocks fell sharply on Monday.", "A child rides a bicycle."]


def test_distinct_texts_keep_their_first_order_and_each_row_its_text():
    found = distinct(TEXTS)
    assert found.texts == list(dict.fromkeys(TEXTS))
    assert [found.texts[i] for i in found.rows] == TEXTS


def test_a_dense_space_is_encode_document_with_each_distinct_text_encoded_once(minilm, monkeypatch):
    from sentence_transformers import SentenceTransformer

    asked = []
    kind = kind_of(minilm)
    read = type(kind).text_vectors
    monkeypatch.setattr(type(kind), "text_vectors", lambda self, *args, **kw: asked.append(list(args[1])) or
                        read(self, *args, **kw))
    space = model_space(minilm, TEXTS, Settings())
    expected = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode_document(TEXTS)
    np.testing.assert_allclose(space.vectors, expected, atol=1e-5)
    assert asked == [list(dict.fromkeys(TEXTS))] and space.reduction is None


def test_a_query_is_encode_query_in_the_space_and_spherized_on_the_corpus_mean(minilm):
    from sentence_transformers import SentenceTransformer

    space = model_space(minilm, TEXTS, Settings())
    query = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode_query(["Who plays music?"])[0]
    np.testing.assert_allclose(query_point(minilm, "Who plays music?", Settings(), space), query, atol=1e-5)
    centre = np.random.default_rng(0).normal(size=query.shape)
    shifted = query - centre
    np.testing.assert_allclose(query_point(minilm, "Who plays music?", Settings(), space, centre=centre),
                               shifted / np.linalg.norm(shifted), atol=1e-5)


@pytest.fixture(scope="module")
def sparse_pair(sparse_folders):
    from sentence_transformers import SparseEncoder

    folder = str(sparse_folders["splade"])
    return load_model(folder, "cpu"), SparseEncoder(folder, device="cpu")


def test_a_sparse_space_is_the_truncated_svd_of_its_rows_and_places_a_query_through_it(sparse_pair):
    model, reference = sparse_pair
    rows = reference.encode_document(list(dict.fromkeys(TEXTS)), convert_to_sparse_tensor=True).to_dense().numpy()
    svd = TruncatedSVD(n_components=len(rows) - 1, random_state=0).fit(rows)
    space = model_space(model, TEXTS, Settings())
    np.testing.assert_allclose(np.abs(space.vectors), np.abs(svd.transform(rows)[distinct(TEXTS).rows]), atol=1e-4)
    query = reference.encode_query(["a guitar"], convert_to_sparse_tensor=True).to_dense().numpy()
    placed = query_point(model, "a guitar", Settings(), space)
    np.testing.assert_allclose(np.abs(placed), np.abs(svd.transform(query)[0]), atol=1e-4)


def test_a_late_interaction_space_is_each_texts_mean_token_vector_as_a_document(late_folders):
    from sentence_transformers import MultiVectorEncoder

    folder = str(late_folders["colbert"])
    documents = MultiVectorEncoder(folder, device="cpu").encode_document(TEXTS)
    means = np.stack([np.asarray(vectors, dtype=np.float64).mean(axis=0) for vectors in documents])
    np.testing.assert_allclose(model_space(load_model(folder, "cpu"), TEXTS, Settings()).vectors, means, atol=1e-5)


def test_a_reranker_has_no_space_and_says_so_in_one_sentence(reranker_folder):
    from core.models.reranker import load_reranker

    model = load_reranker(str(reranker_folder), "cpu")
    with pytest.raises(ValueError, match="is a reranker, which reads a query and a text together") as refused:
        model_space(model, TEXTS, Settings())
    assert "\n" not in str(refused.value)
