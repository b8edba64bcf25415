"""The per-token matrix of a few texts (Fine-tune's heatmap of a late-interaction model) is the model's own
similarity over each query's token count."""

import numpy as np
import pytest

from core.analysis.late.similarity import per_token_matrix
from core.models.loading import load_model
from tests.multivector import TEXTS


@pytest.mark.parametrize("name", ["colbert", "pooled-meanmaxsim"])
def test_the_per_token_matrix_is_the_models_similarity_over_each_querys_token_count(late_folders, name):
    from sentence_transformers import MultiVectorEncoder

    model = load_model(str(late_folders[name]), "cpu")
    reference = MultiVectorEncoder(str(model.folder), device="cpu", local_files_only=True)
    queries = reference.encode_query(TEXTS)
    expected = reference.similarity(queries, reference.encode_document(TEXTS)).numpy()
    if reference.similarity_fn_name == "maxsim":
        expected = expected / np.array([len(q) for q in queries])[:, None]
    ours = per_token_matrix(model, TEXTS)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)
    assert np.abs(ours).max() <= 1 + 1e-5  # normalised token vectors: a mean of cosines
