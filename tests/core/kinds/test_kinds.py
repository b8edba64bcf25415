"""Each registered kind encodes texts for a role as sentence-transformers' own model class does (encode_query /
encode_document), keeps a corpus on disk equal to what it encodes, writes columns that fit its own schema, and
refuses the options that do not apply to it in the sentence its Applies says."""

import numpy as np
import pyarrow as pa
import pytest

from core.kinds import KINDS, kind_of
from core.models.loading import load_model
from core.settings import Settings

TEXTS = ["A man plays the guitar.", "The bank by the river flooded.", "Stocks fell sharply today."]


@pytest.fixture(scope="module")
def folders(tiny_sentence_transformer_folder, sparse_folders, late_folders):
    return {"dense": tiny_sentence_transformer_folder, "sparse": sparse_folders["splade"],
            "late interaction": late_folders["colbert"]}


def _theirs(kind: str, folder, role: str):
    from sentence_transformers import MultiVectorEncoder, SentenceTransformer, SparseEncoder

    cls = {"dense": SentenceTransformer, "sparse": SparseEncoder, "late interaction": MultiVectorEncoder}[kind]
    model = cls(str(folder), device="cpu", local_files_only=True)
    encode = model.encode_query if role == "query" else model.encode_document
    if kind == "sparse":
        return np.stack([row.to_dense().numpy() for row in encode(TEXTS, convert_to_tensor=False)])
    if kind == "late interaction":
        return [np.asarray(vectors) for vectors in encode(TEXTS, convert_to_numpy=True)]
    return np.asarray(encode(TEXTS))


def _ours(kind: str, encoded):
    if kind == "sparse":
        return encoded.matrix.toarray()
    if kind == "late interaction":
        return [text.vectors for text in encoded]
    return encoded.vectors


@pytest.mark.parametrize("role", ["query", "document"])
@pytest.mark.parametrize("kind", ["dense", "sparse", "late interaction"])
def test_encode_for_a_role_equals_sentence_transformers(folders, kind, role):
    model = load_model(str(folders[kind]), "cpu")
    assert kind_of(model) is KINDS[kind]
    settings = Settings(model_id=model.model_id, role=role)
    if KINDS[kind].applies.prompts:  # the role's own prompt, as encode_query / encode_document apply it
        from core.encoding.prompts import resolve_prompt

        settings = settings.with_(prompt=resolve_prompt(model.pipeline, role))
    ours, theirs = _ours(kind, KINDS[kind].encode(model, TEXTS, settings)), _theirs(kind, folders[kind], role)
    for mine, reference in (zip(ours, theirs) if isinstance(ours, list) else [(ours, theirs)]):
        np.testing.assert_allclose(mine, reference, atol=1e-5)


@pytest.mark.parametrize("kind", ["dense", "sparse", "late interaction"])
def test_a_cached_corpus_equals_its_encoding_and_its_columns_fit_the_schema(folders, kind):
    model, k = load_model(str(folders[kind]), "cpu"), KINDS[kind]
    settings = Settings(model_id=model.model_id, role="document")
    cached, encoded = k.cached(model, TEXTS, settings), k.encode(model, TEXTS, settings)
    stored = k.stored_corpus(model, TEXTS, settings)
    assert stored is not None and k.cache_key(model, TEXTS, settings) == k.cache_key(model, list(TEXTS), settings)
    dense = {"dense": lambda m: np.asarray(m), "sparse": lambda m: m.toarray(),
             "late interaction": lambda m: m.vectors}[kind]
    flat = {"dense": lambda e: e.vectors, "sparse": lambda e: e.matrix.toarray(),
            "late interaction": lambda e: np.concatenate([t.vectors for t in e])}[kind]
    np.testing.assert_allclose(dense(cached), flat(encoded), atol=1e-6)
    table = pa.Table.from_arrays(k.columns(model, encoded), schema=k.schema)
    assert table.num_rows == len(TEXTS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_refusal_names_every_refused_option_and_nothing_else(folders, reranker_folder, kind):
    k = KINDS[kind]
    given = {flag: "mean" if flag == "--pooling" else True for flag in k.refused_flags()}
    said = k.refused(None, given)
    if not k.refused_flags():
        assert said is None
        return
    assert said is not None and said.endswith(("leave them out.", "leave it out."))
    for flag in k.refused_flags():
        assert flag in said
    assert k.refused(None, {"--pooling": "default"}) is None  # the model's own pooling applies to every kind


def test_layer_0_is_an_option_given():
    assert KINDS["sparse"].refused(None, {"--layer": 0}) == "--layer does not apply to a sparse model; leave it out."
