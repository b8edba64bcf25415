"""A sparse model's vectors read as terms: each text's terms and where they come from, the model's own similarity,
the exact split of a pair's score into shared terms, and every layer's terms through the masked-LM head."""

import numpy as np
import pytest
from sentence_transformers import SparseEncoder

from core.analysis.layer_terms import layer_terms, top_terms_by_layer
from core.analysis.terms import sides_differ, sparse_similarity, sparsity, term_split, text_terms
from core.encoding.prompts import resolve_prompt
from core.encoding.sparse import encode_sparse
from core.models.loading import load_model
from core.settings import Settings

BANK = ["The bank by the river was flooded.", "She deposited her salary at the bank.", "A man plays the guitar."]


def test_a_texts_terms_are_its_vector_heaviest_first_with_where_each_comes_from(splade):
    terms = text_terms(splade, BANK[0], Settings())
    reference = dict(splade.sparse.decode(splade.sparse.encode_document(BANK[0])))
    assert dict(zip(terms.table["term"], terms.table["weight"])) == pytest.approx(reference, abs=1e-6)
    assert terms.table["weight"].is_monotonic_decreasing
    origin = dict(zip(terms.table["term"], terms.table["origin"]))
    assert origin["bank"] == origin["river"] == "in the text" and origin["flood"] == "added by the model"
    assert "flood" in set(terms.expansion["term"]) and "bank" not in set(terms.expansion["term"])
    assert terms.sparsity.active_dims == len(terms.table) and terms.sparsity.sparsity_ratio == pytest.approx(
        1 - len(terms.table) / 30522)


def test_prompt_tokens_are_marked_and_sides_differ_where_prompts_or_routes_do(sparse_folders, splade):
    prompted = load_model(str(sparse_folders["splade-prompted"]), "cpu")
    query = text_terms(prompted, "bank river", Settings(), "query")
    assert query.prompt == "query: "
    own, prompt = (set(prompted.tokenizer(text, add_special_tokens=False)["input_ids"]) for text in
                   ("bank river", "query: "))
    for column, origin in zip(query.table["column"], query.table["origin"]):
        assert origin == ("in the text" if column in own else "in the prompt" if column in prompt
                          else "added by the model")
    assert sides_differ(prompted) and sides_differ(load_model(str(sparse_folders["inference-free"]), "cpu"))
    assert not sides_differ(splade)


def test_sparsity_is_sentence_transformers_own_measure(splade):
    rows = encode_sparse(splade, BANK).matrix
    expected = SparseEncoder.sparsity(splade.sparse.encode_document(BANK))
    found = sparsity(rows)
    assert (found.active_dims, found.sparsity_ratio) == pytest.approx(
        (expected["active_dims"], expected["sparsity_ratio"]))


@pytest.mark.parametrize("name", ["splade", "splade-prompted"])  # the dot product, and the cosine
def test_the_matrix_is_the_models_similarity_and_a_pairs_terms_sum_to_its_score(sparse_folders, name):
    model = load_model(str(sparse_folders[name]), "cpu")
    reference = SparseEncoder(str(sparse_folders[name]), device="cpu")
    prompt = resolve_prompt(model.pipeline)
    found = sparse_similarity(model, BANK, Settings(prompt=prompt), reorder=True)
    vectors = reference.encode(BANK)
    np.testing.assert_allclose(found.matrix, reference.similarity(vectors, vectors).numpy(), rtol=1e-5, atol=1e-5)
    assert sorted(found.order) == [0, 1, 2]
    rows = found.embeddings.matrix
    split = term_split(model, rows[0], rows[1])
    assert split.total == pytest.approx(split.score, rel=1e-5) == pytest.approx(found.matrix[0, 1], rel=1e-5)
    assert split.table["contribution"].is_monotonic_decreasing
    assert split.only_a + len(split.table) == rows[0].nnz and split.only_b + len(split.table) == rows[1].nnz


def test_texts_that_share_no_term_split_into_nothing(sparse_folders):
    model = load_model(str(sparse_folders["inference-free"]), "cpu")
    rows = encode_sparse(model, ["bank", "guitar"], role="query").matrix  # a query's terms are its own tokens
    split = term_split(model, rows[0], rows[1])
    assert split.table.empty and split.score == split.total == 0 and split.only_a == split.only_b == 1


@pytest.mark.parametrize("source", ["splade-tiny", "splade"])
def test_the_last_layers_terms_are_the_models_vector(sparse_folders, source):
    model = load_model(source if source == "splade-tiny" else str(sparse_folders[source]), "cpu")
    found = layer_terms(model, BANK)
    assert len(found.rows) == model.num_layers + 1
    np.testing.assert_allclose(found.rows[-1].toarray(), encode_sparse(model, BANK).matrix.toarray(), atol=1e-5)
    table = top_terms_by_layer(model, found, 0)
    assert table["active terms"].tolist() == [rows[0].nnz for rows in found.rows]
    assert found.active()["active terms"].sum() == sum(rows.nnz for rows in found.rows)


def test_layers_of_a_model_without_a_masked_lm_head_are_said(sparse_folders, tiny_bert):
    with pytest.raises(ValueError, match="not a sparse one"):
        layer_terms(tiny_bert, BANK)
