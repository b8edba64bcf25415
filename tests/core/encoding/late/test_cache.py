"""A late-interaction corpus on disk: one file of every token vector with per-text offsets and the tokens, equal to
encode_document / encode_query, read back memory-mapped and read-only, never read when it fails a check."""

import numpy as np
import pytest

from core.encoding.late import cache as late_cache
from core.encoding.late.cache import cached_token_matrix, late_file, late_key, stored_token_matrix
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import encode_multivector
from core.models.loading import load_model
from tests.multivector import TEXTS


@pytest.fixture(scope="module")
def colbert(late_folders):
    return load_model(str(late_folders["colbert"]), "cpu")


def reference(model):
    from sentence_transformers import MultiVectorEncoder

    return MultiVectorEncoder(str(model.folder), device="cpu", local_files_only=True)


@pytest.mark.parametrize("role", ["document", "query"])
def test_the_stored_matrix_equals_encode_document_and_encode_query_with_each_token(colbert, role):
    texts = [*TEXTS, ""]
    matrix = cached_token_matrix(colbert, texts, role)
    st = reference(colbert)
    expected = (st.encode_query if role == "query" else st.encode_document)(texts)
    ours = encode_multivector(colbert, texts, role=role)
    assert len(matrix) == len(texts)
    for i, (text, theirs) in enumerate(zip(ours, expected)):
        stored = matrix.text(i)
        np.testing.assert_allclose(stored.vectors, theirs.numpy(), atol=1e-6)
        assert stored.tokens == text.tokens
        np.testing.assert_array_equal(stored.expansion, text.expansion)
        np.testing.assert_array_equal(stored.prompt, text.prompt)
        assert stored.truncated == text.truncated
    assert matrix.text(0).expansion.any() == (role == "query")


def test_it_is_memory_mapped_read_only_and_read_without_encoding_again(colbert, monkeypatch):
    texts = TEXTS[::-1]
    made = cached_token_matrix(colbert, texts)
    assert isinstance(made.vectors, np.memmap) and not made.vectors.flags.writeable
    with pytest.raises(ValueError):
        made.vectors[0, 0] = 1.0
    monkeypatch.setattr(late_cache, "_memo", late_cache.FileMemo(2**30))  # a new process: only the file
    monkeypatch.setattr(late_cache, "encode_multivector", lambda *a, **k: pytest.fail("encoded again"))
    found = stored_token_matrix(colbert, texts)
    assert found is not None
    np.testing.assert_array_equal(found.vectors, made.vectors)
    assert [found.tokens(i) for i in range(len(texts))] == [made.tokens(i) for i in range(len(texts))]


def test_a_corpus_written_a_step_at_a_time_equals_one_written_at_once(colbert, monkeypatch):
    texts = [f"{text} ({i})" for i, text in enumerate(TEXTS * 3)]
    monkeypatch.setattr(late_cache, "ENCODE_STEP", 4)
    steps = cached_token_matrix(colbert, texts)
    whole = TokenMatrix.of(encode_multivector(colbert, texts))
    np.testing.assert_array_equal(steps.offsets, whole.offsets)
    np.testing.assert_allclose(steps.vectors, whole.vectors, atol=1e-6)
    assert [steps.tokens(i) for i in range(len(texts))] == [whole.tokens(i) for i in range(len(texts))]


@pytest.mark.parametrize("damage", ["flip a vector byte", "cut the end", "empty", "another key"])
def test_a_damaged_file_is_deleted_and_built_again(colbert, damage, monkeypatch):
    texts = [f"{damage}: {text}" for text in TEXTS]
    key = late_key(colbert, texts, "document")
    path = late_file(key)
    first = np.array(cached_token_matrix(colbert, texts).vectors)
    data = bytearray(path.read_bytes())
    if damage == "flip a vector byte":
        data[late_cache.HEADER_BYTES + 5] ^= 0xFF
    elif damage == "cut the end":
        data = data[:-3]
    elif damage == "empty":
        data = bytearray()
    path.write_bytes(bytes(data))
    if damage == "another key":
        assert late_cache.read_token_matrix(path, "x" * len(key)) is None
        assert not path.exists()
        return
    monkeypatch.setattr(late_cache, "_memo", late_cache.FileMemo(2**30))
    assert late_cache.read_token_matrix(path, key) is None and not path.exists()
    np.testing.assert_array_equal(cached_token_matrix(colbert, texts).vectors, first)


def test_the_key_follows_the_role_the_texts_and_the_pipeline(colbert, late_folders):
    other = load_model(str(late_folders["pylate"]), "cpu")  # the same weights, promoted with other markers
    keys = {late_key(colbert, TEXTS, "document"), late_key(colbert, TEXTS, "query"),
            late_key(colbert, TEXTS[:-1], "document"), late_key(other, TEXTS, "document")}
    assert len(keys) == 4
    assert late_key(colbert, TEXTS, "document") == late_key(colbert, list(TEXTS), "text")  # "text" is a document
