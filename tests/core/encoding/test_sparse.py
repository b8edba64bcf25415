"""Sparse models embedded exactly as sentence-transformers embeds them: the tiny SparseEncoder folders of
tests/sparse.py and the packaged SPLADE-tiny, against `encode_query` and `encode_document` on the same folder; kept
sparse in memory and on disk."""

import numpy as np
import pytest
import scipy.sparse as sp
from sentence_transformers import SparseEncoder

from core.encoding import embedding_cache
from core.encoding.embedding_cache import cache_file, cached_sparse_with, sparse_key, stored_sparse
from core.encoding.prompts import resolve_prompt, with_role
from core.encoding.sparse import encode_sparse
from core.models.loading import load_model
from core.models.packages import splade_folder
from core.settings import Settings
from tests.sparse import SPARSE_FIXTURES, SPLADE_PROMPTS

TEXTS = ["The bank by the river was flooded.", "She deposited her salary at the bank.", "",
         "A man plays the guitar on stage, and the crowd sings along with every word of the chorus."]


def _dense(tensor) -> np.ndarray:
    return tensor.to_dense().numpy()


@pytest.mark.parametrize("name", SPARSE_FIXTURES)
@pytest.mark.parametrize("role", ["query", "document"])
def test_each_role_equals_encode_query_and_encode_document(sparse_folders, name, role):
    model = load_model(str(sparse_folders[name]), "cpu")
    reference = SparseEncoder(str(sparse_folders[name]), device="cpu")
    expected = _dense((reference.encode_query if role == "query" else reference.encode_document)(TEXTS))
    found = encode_sparse(model, TEXTS, role=role, prompt=resolve_prompt(model.pipeline, role))
    assert found.matrix.shape == expected.shape and sp.isspmatrix_csr(found.matrix)
    assert found.matrix.data.flags.c_contiguous and found.matrix.indices.flags.c_contiguous  # scikit-learn needs it
    np.testing.assert_allclose(found.matrix.toarray(), expected, atol=1e-5)


def test_a_sparse_folder_loads_as_a_sparse_model_with_its_prompts_and_similarity(sparse_folders):
    model = load_model(str(sparse_folders["splade-prompted"]), "cpu")
    assert model.kind == "sparse" and model.dimensions == 30522
    assert model.pipeline.prompts == SPLADE_PROMPTS and model.sparse_pipeline.similarity == "cosine"
    assert model.default_pooling == "SPLADE sum"
    routed = load_model(str(sparse_folders["inference-free"]), "cpu")
    assert routed.sparse_pipeline.query_side == "SparseStaticEmbedding"
    assert [stage.module_type for stage in routed.pipeline.stages] == ["Router", "Transformer", "SpladePooling"]


def test_the_inference_free_query_side_activates_only_the_query_tokens(sparse_folders):
    model = load_model(str(sparse_folders["inference-free"]), "cpu")
    query = encode_sparse(model, ["bank river"], role="query").matrix
    assert sorted(model.tokenizer.convert_ids_to_tokens(query.indices.tolist())) == ["bank", "river"]
    assert encode_sparse(model, ["bank river"], role="document").matrix.nnz > 2


def test_splade_tiny_is_sentence_transformers_splade_on_the_packaged_masked_lm(splade):
    from sentence_transformers.sparse_encoder.modules import MLMTransformer, SpladePooling

    reference = SparseEncoder(modules=[MLMTransformer(str(splade_folder())), SpladePooling("max")], device="cpu")
    for role, encode in (("query", reference.encode_query), ("document", reference.encode_document)):
        np.testing.assert_allclose(encode_sparse(splade, TEXTS, role=role).matrix.toarray(), _dense(encode(TEXTS)),
                                   atol=1e-5)
    terms = dict(reference.decode(reference.encode_document(TEXTS[0]), top_k=8))
    assert {"bank", "river", "flood"} <= set(terms)


def test_a_shorter_limit_cuts_texts_as_sentence_transformers_does(splade):
    found = encode_sparse(splade, TEXTS, max_length=12)
    assert found.truncated == [3] and found.limit == 12
    reference = SparseEncoder(str(splade_folder()), device="cpu")
    reference.max_seq_length = 12
    np.testing.assert_allclose(found.matrix.toarray(), _dense(reference.encode_document(TEXTS)), atol=1e-5)


def test_texts_seen_before_are_not_encoded_again(sparse_folders, monkeypatch):
    model = load_model(str(sparse_folders["splade"]), "cpu")
    first = encode_sparse(model, TEXTS).matrix
    monkeypatch.setattr(model.sparse, "encode", lambda *a, **k: pytest.fail("encoded again"))
    again = encode_sparse(model, [TEXTS[2], TEXTS[0]]).matrix
    assert (again != first[[2, 0]]).nnz == 0


def test_a_sparse_corpus_is_stored_as_csr_read_back_and_rebuilt_when_damaged(sparse_folders):
    model = load_model(str(sparse_folders["splade"]), "cpu")
    settings = with_role(Settings(model_id=model.model_id), model.pipeline, "document")
    matrix = cached_sparse_with(model, TEXTS, settings)
    path = cache_file(sparse_key(model, TEXTS, settings))
    assert path.stat().st_size < matrix.nnz * 8 + 1024  # its CSR arrays, not a vocabulary-wide matrix
    embedding_cache._memo.clear()
    read = stored_sparse(model, TEXTS, settings)
    assert read is not None and (read != matrix).nnz == 0 and not read.data.flags.writeable
    path.write_bytes(path.read_bytes()[:-5])
    embedding_cache._memo.clear()
    assert stored_sparse(model, TEXTS, settings) is None and not path.exists()
    query_side = with_role(Settings(model_id=model.model_id), model.pipeline, "query")
    assert sparse_key(model, TEXTS, query_side) != sparse_key(model, TEXTS, settings)
