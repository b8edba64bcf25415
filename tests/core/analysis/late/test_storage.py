"""A late-interaction model's storage: the vectors encode_document keeps per text, counted from the tokenizer alone,
against sentence-transformers' own encode_document on the same texts; a text's tokens as a query and as a document
with what becomes of each, against its own encode_query / encode_document and the tokenizer."""

import string

import numpy as np
import pytest

from core.analysis.late.storage import corpus_storage, document_vectors, storage_table
from core.data.stsb import stsb_corpus
from core.encoding.late.tokens import encode_multivector, token_uses
from core.models.loading import load_model
from tests.multivector import EXPANSION, PROMPTS, TEXTS, WIDTH

SAMPLE = 200  # STS-B texts beside the fixtures' own


def reference(folder):
    from sentence_transformers import MultiVectorEncoder

    return MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)


@pytest.mark.parametrize("name", ["colbert", "pylate", "stanford", "pooled-meanmaxsim"])
def test_counted_vectors_are_the_ones_encode_document_keeps(late_folders, name):
    texts = [*TEXTS, *stsb_corpus()[:SAMPLE], "word " * 200]  # one cut at the document length
    model = load_model(str(late_folders[name]), "cpu")
    counts, at_most = document_vectors(model, texts)
    kept = np.array([len(vectors) for vectors in reference(late_folders[name]).encode_document(texts)])
    if name == "pooled-meanmaxsim":  # Ward clusters may tie and merge further: the count is a bound
        assert at_most and (counts >= kept).all() and (counts == kept).mean() > 0.9
    else:
        assert not at_most
        np.testing.assert_array_equal(counts, kept)


def test_storage_is_a_float32_vector_per_kept_token_beside_one_hidden_size_vector_a_text(late_folders):
    model = load_model(str(late_folders["colbert"]), "cpu")
    storage = corpus_storage(model, TEXTS)
    kept = sum(len(vectors) for vectors in reference(late_folders["colbert"]).encode_document(TEXTS))
    assert (storage.vectors, storage.bytes) == (kept, kept * WIDTH * 4)
    assert storage.dense_bytes == len(TEXTS) * model.network.config.hidden_size * 4
    assert storage.ratio == pytest.approx(kept * WIDTH / (len(TEXTS) * model.network.config.hidden_size))
    table = storage_table(storage)
    assert table.loc["dense, one vector", "dimensions"] == model.network.config.hidden_size
    assert table.loc["late interaction", "dimensions"] == WIDTH
    assert table.loc["late interaction", "vectors a text"].startswith(f"{kept / len(TEXTS):.1f} ")


@pytest.mark.parametrize("name", ["colbert", "pylate", "stanford", "pooled-meanmaxsim"])
def test_token_uses_mark_what_encode_multivector_keeps(late_folders, name):
    model = load_model(str(late_folders[name]), "cpu")
    for role in ("query", "document"):
        for text, vectors in zip(TEXTS, encode_multivector(model, TEXTS, role=role)):
            side = token_uses(model, text, role=role)
            scored = [(token, use) for token, use in zip(side.tokens, side.uses)
                      if use not in ("dropped", "unscored")]
            assert side.vectors == len(vectors.tokens)
            assert tuple(token for token, use in zip(side.tokens, side.uses) if use == "dropped") \
                == vectors.dropped
            if name == "pooled-meanmaxsim" and role == "document":  # pooled: fewer vectors than scored tokens
                assert side.scored >= side.vectors
                continue
            assert tuple(token for token, _ in scored) == vectors.tokens
            assert [use == "expansion" for _, use in scored] == vectors.expansion.tolist()
            assert [use == "prompt" for _, use in scored] == vectors.prompt.tolist()


def test_token_uses_against_the_tokenizer(late_folders):
    """The colbert folder: a document is its prompt and text as the tokenizer splits them, its punctuation dropped;
    a query keeps its punctuation and is expanded with [MASK] to the expansion length."""
    model = load_model(str(late_folders["colbert"]), "cpu")
    tokenizer = model.tokenizer
    text = "Where do cats sleep? On the warm rug, mostly."
    document = token_uses(model, text, role="document")
    every = tokenizer.convert_ids_to_tokens(tokenizer(PROMPTS["document"] + text)["input_ids"])
    assert document.tokens == tuple(every)
    assert [use == "dropped" for use in document.uses] == [token in string.punctuation for token in every]
    assert [use == "special" for use in document.uses] == [token in ("[CLS]", "[SEP]") for token in every]
    query = token_uses(model, "Where do cats sleep?", role="query")
    every = tokenizer.convert_ids_to_tokens(tokenizer(PROMPTS["query"] + "Where do cats sleep?")["input_ids"])
    assert query.tokens[:len(every)] == tuple(every) and len(query.tokens) == EXPANSION > len(every)
    assert query.uses[len(every):] == ("expansion",) * (len(query.tokens) - len(every))
    assert [token for token, use in zip(query.tokens, query.uses) if use == "prompt"] == ["query", ":"]
