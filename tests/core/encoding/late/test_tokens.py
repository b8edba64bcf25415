"""Late-interaction models load as sentence-transformers loads them and give its own token vectors, with their
tokens: each folder of tests/multivector.py against a MultiVectorEncoder loaded from the same folder."""

import string

import numpy as np
import pytest

from core.encoding.late.tokens import encode_multivector
from core.models.catalog import LATE
from core.models.loading import load_model
from core.models.sources import folder_kind
from tests.multivector import EXPANSION, PROMPTS, TEXTS, WIDTH


def reference(folder):
    from sentence_transformers import MultiVectorEncoder

    return MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)


@pytest.fixture(scope="module", params=["colbert", "pooled-meanmaxsim", "pylate", "stanford"])
def pair(request, late_folders):
    folder = late_folders[request.param]
    return request.param, load_model(str(folder), "cpu"), reference(folder)


def test_every_late_interaction_format_is_read_as_late_interaction(late_folders):
    assert {name: folder_kind(folder) for name, folder in late_folders.items()} == dict.fromkeys(late_folders, LATE)


def test_token_vectors_equal_encode_query_and_encode_document(pair):
    _, model, st = pair
    assert model.kind == LATE and model.dimensions == WIDTH
    for role, encode in (("query", st.encode_query), ("document", st.encode_document)):
        ours = encode_multivector(model, TEXTS, role=role)
        theirs = encode(TEXTS)
        for text, expected in zip(ours, theirs):
            assert len(text.tokens) == len(text.vectors) == len(text.expansion) == len(text.prompt)
            np.testing.assert_allclose(text.vectors, expected.numpy(), atol=1e-6)


def test_each_kept_token_is_the_one_the_tokenizer_gives(late_folders):
    """The colbert folder's document side drops punctuation (its skiplist) and keeps the rest in order; its queries
    keep punctuation and are expanded with [MASK] to the expansion length."""
    model = load_model(str(late_folders["colbert"]), "cpu")
    tokenizer = model.tokenizer
    for text, vectors in zip(TEXTS, encode_multivector(model, TEXTS, role="document")):
        every = tokenizer.convert_ids_to_tokens(tokenizer(PROMPTS["document"] + text)["input_ids"])
        assert vectors.tokens == tuple(token for token in every if token not in string.punctuation)
        assert vectors.dropped == tuple(token for token in every if token in string.punctuation)
        assert list(np.array(vectors.tokens)[vectors.prompt]) == ["passage"]
    for text, vectors in zip(TEXTS, encode_multivector(model, TEXTS, role="query")):
        every = tokenizer.convert_ids_to_tokens(tokenizer(PROMPTS["query"] + text)["input_ids"])
        assert vectors.tokens == (*every, *["[MASK]"] * (EXPANSION - len(every)))
        assert vectors.expansion.sum() == EXPANSION - len(every) and not vectors.dropped
        assert list(np.array(vectors.tokens)[vectors.prompt]) == ["query", ":"]


def test_markers_of_a_pylate_or_stanford_checkpoint_stay_one_token(late_folders):
    for name in ("pylate", "stanford"):
        model = load_model(str(late_folders[name]), "cpu")
        query, document = (encode_multivector(model, ["What is a cat?"], role=role)[0]
                           for role in ("query", "document"))
        assert query.tokens[:2] == ("[CLS]", "[unused0]") and document.tokens[:2] == ("[CLS]", "[unused1]")
        assert query.prompt[1] and document.prompt[1]


def test_texts_seen_before_are_not_encoded_again(late_folders, monkeypatch):
    model = load_model(str(late_folders["colbert"]), "cpu")
    first = encode_multivector(model, TEXTS, role="document")
    monkeypatch.setattr(model.multivector, "encode_document", lambda *a, **k: pytest.fail("encoded again"))
    again = encode_multivector(model, TEXTS[::-1], role="document")
    assert [text.tokens for text in again] == [text.tokens for text in first[::-1]]


def test_a_query_longer_than_the_expansion_is_said_to_be_cut(late_folders):
    model = load_model(str(late_folders["colbert"]), "cpu")
    long, short = encode_multivector(model, [" ".join(["word"] * 40), "short"], role="query")
    assert long.truncated and not short.truncated and len(long.tokens) == EXPANSION


def test_a_model_whose_pipeline_pools_tokens_names_its_vectors_as_groups(late_folders):
    model = load_model(str(late_folders["pooled-meanmaxsim"]), "cpu")
    document = encode_multivector(model, TEXTS[:1], role="document")[0]
    assert document.tokens[0] == "⟨pooled 1⟩" and model.late_pipeline.token_pooling
    assert model.late_pipeline.similarity == "meanmaxsim"


def test_the_pipeline_says_what_sentence_transformers_configured(late_folders):
    pipeline = load_model(str(late_folders["colbert"]), "cpu").late_pipeline
    assert pipeline.query_length == EXPANSION and pipeline.document_length == 48
    assert pipeline.expansion_tokens == EXPANSION and pipeline.skiplist_tasks == ("document",)
    assert set(pipeline.skiplist) == set(string.punctuation) and pipeline.prompts == PROMPTS
    assert [stage.module_type for stage in pipeline.stages] == ["Transformer", "Dense", "MultiVectorMask", "Normalize"]


def test_pylates_own_modules_are_the_ones_sentence_transformers_reads_as_its_own():
    from sentence_transformers.multi_vector_encoder.model import _CLASS_REF_ALIASES

    from core.models.remote_code import READ_AS_OWN

    assert set(READ_AS_OWN) == set(_CLASS_REF_ALIASES)
