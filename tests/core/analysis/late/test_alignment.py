"""Late interaction's scores are the model's own, and the alignment explains each one exactly: every query token's
best document token, whose similarities sum to the score."""

import numpy as np
import pytest

from core.analysis.late.alignment import align, alignment, scores, stored_bytes
from core.encoding.late.tokens import encode_multivector
from core.models.loading import load_model
from tests.multivector import TEXTS, WIDTH


@pytest.fixture(scope="module", params=["colbert", "pooled-meanmaxsim", "pylate"])
def model(request, late_folders):
    return load_model(str(late_folders[request.param]), "cpu")


def test_scores_equal_the_models_own_similarity_of_its_own_vectors(model):
    from sentence_transformers import MultiVectorEncoder

    reference = MultiVectorEncoder(str(model.folder), device="cpu", local_files_only=True)
    expected = reference.similarity(reference.encode_query(TEXTS), reference.encode_document(TEXTS)).numpy()
    queries, documents = (encode_multivector(model, TEXTS, role=role) for role in ("query", "document"))
    ours = scores(model, queries, documents)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)
    assert not np.allclose(ours, ours.T)  # queries and documents are encoded differently


def test_each_query_tokens_share_is_its_best_match_and_the_shares_sum_to_the_score(model):
    queries, documents = (encode_multivector(model, TEXTS, role=role) for role in ("query", "document"))
    matrix = scores(model, queries, documents)
    for i, query in enumerate(queries):
        for j, document in enumerate(documents):
            explained = alignment(model, query, document)
            assert explained.score == pytest.approx(float(matrix[i, j]), abs=1e-5)
            assert explained.typed_share + explained.expansion_share + explained.prompt_share == pytest.approx(
                explained.score)
            for row, column in enumerate(explained.best):
                assert explained.grid[row].max() == explained.grid[row, column]


def test_meanmaxsim_divides_each_share_by_the_query_tokens():
    rng = np.random.default_rng(0)
    from core.encoding.late.tokens import TokenVectors

    def text(count):
        return TokenVectors(tuple("t" * (i + 1) for i in range(count)), rng.normal(size=(count, 4)).astype(np.float32),
                            np.zeros(count, bool), np.zeros(count, bool), (), False)

    query, document = text(3), text(5)
    plain, mean = align(query, document, "maxsim"), align(query, document, "meanmaxsim")
    brute = sum(max(float(q @ d) for d in document.vectors) for q in query.vectors)
    assert plain.score == pytest.approx(brute) and mean.score == pytest.approx(brute / 3)


def test_storage_counts_a_float32_vector_per_kept_token(late_folders):
    model = load_model(str(late_folders["colbert"]), "cpu")
    documents = encode_multivector(model, TEXTS, role="document")
    assert stored_bytes(documents) == sum(len(text.tokens) for text in documents) * WIDTH * 4

