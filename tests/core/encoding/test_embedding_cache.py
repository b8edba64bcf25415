from contextlib import contextmanager

import numpy as np
import pytest

from core.encoding import embedding_cache as cache
from core.encoding.embedding_cache import MAGIC, cache_file, cache_key, cached_embeddings, read_vectors, write_vectors
from core.encoding.encoder import encode
from core.settings import Settings

TEXTS = ["A cat sits on the mat.", "Stocks fell sharply today.", "A kitten rests on a rug."]


def _key(model, texts=TEXTS, **changes):
    options = dict(pooling="mean", layer=None, normalize=False, max_length=None) | changes
    return cache_key(model, texts, **options)


def test_key_changes_with_every_input_and_resolves_defaults(tiny_bert):
    base = _key(tiny_bert)
    assert base == _key(tiny_bert, layer=tiny_bert.num_layers)
    assert base == _key(tiny_bert, max_length=tiny_bert.max_length)
    others = {_key(tiny_bert, pooling="cls"), _key(tiny_bert, layer=0), _key(tiny_bert, normalize=True),
              _key(tiny_bert, max_length=8), _key(tiny_bert, texts=TEXTS[:2]), _key(tiny_bert, texts=TEXTS[::-1]),
              _key(tiny_bert, texts=["ab", "c"]) }
    assert base not in others and len(others) == 7
    assert _key(tiny_bert, texts=["ab", "c"]) != _key(tiny_bert, texts=["a", "bc"])


def test_read_through_stores_once_and_then_reads_from_disk(tiny_bert, monkeypatch):
    expected = encode(tiny_bert, TEXTS, pooling="mean", layer=1).vectors
    first = cached_embeddings(tiny_bert, TEXTS, pooling="mean", layer=1)
    np.testing.assert_array_equal(first, expected)
    assert first.dtype == np.float32
    monkeypatch.setattr(cache, "encode", lambda *a, **k: pytest.fail("a cached corpus was encoded again"))
    again = cached_embeddings(tiny_bert, TEXTS, pooling="mean", layer=1)
    np.testing.assert_array_equal(again, expected)


def test_progress_reports_counts_while_encoding(tiny_bert):
    seen = []
    cached_embeddings(tiny_bert, [f"text number {i}" for i in range(40)], pooling="max",
                      progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (40, 40)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "other_key"])
def test_a_damaged_file_is_detected_deleted_and_rebuilt(tiny_bert, damage):
    texts = [f"{damage} sentence {i}" for i in range(5)]
    key = _key(tiny_bert, texts=texts)
    good = cached_embeddings(tiny_bert, texts, pooling="mean")
    path = cache_file(key)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[:-7])
    elif damage == "flip":
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    elif damage == "garbage":
        path.write_bytes(b"not a cache file")
    else:
        write_vectors(path, "someone-else", good)
    assert read_vectors(path, key) is None
    assert not path.exists()
    rebuilt = cached_embeddings(tiny_bert, texts, pooling="mean")
    np.testing.assert_array_equal(rebuilt, good)
    assert read_vectors(path, key) is not None


def test_file_layout_round_trips_an_empty_and_a_full_array(tmp_path):
    for vectors in (np.zeros((0, 4), np.float32), np.arange(12, dtype=np.float32).reshape(3, 4)):
        path = tmp_path / "v.emb"
        write_vectors(path, "k", vectors)
        assert path.read_bytes().startswith(MAGIC)
        np.testing.assert_array_equal(read_vectors(path, "k"), vectors)


def test_a_rerun_reads_from_memory_and_hands_out_read_only_vectors(tiny_bert, monkeypatch):
    texts = [f"memo sentence {i}" for i in range(4)]
    first = cached_embeddings(tiny_bert, texts, pooling="mean")
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0] = 1.0
    monkeypatch.setattr(cache, "read_vectors", lambda *a: pytest.fail("the file was read again"))
    again = cached_embeddings(tiny_bert, texts, pooling="mean")
    np.testing.assert_array_equal(again, first)
    assert not again.flags.writeable


def test_a_file_replaced_on_disk_is_read_again(tiny_bert):
    texts = [f"replaced sentence {i}" for i in range(3)]
    key = _key(tiny_bert, texts=texts)
    cached_embeddings(tiny_bert, texts, pooling="mean")
    other = np.arange(3 * tiny_bert.hidden_size, dtype=np.float32).reshape(3, -1)
    write_vectors(cache_file(key), key, other)
    np.testing.assert_array_equal(cached_embeddings(tiny_bert, texts, pooling="mean"), other)


def test_the_progress_bar_opens_only_when_texts_are_encoded(tiny_bert):
    opened = []

    @contextmanager
    def bar():
        opened.append(True)
        yield lambda done, total: None

    settings = Settings(model_id=tiny_bert.model_id, pooling="mean")
    texts = [f"bar sentence {i}" for i in range(3)]
    first = cache.cached_embeddings_with(tiny_bert, texts, settings, bar)
    again = cache.cached_embeddings_with(tiny_bert, texts, settings, bar)
    assert opened == [True]
    np.testing.assert_array_equal(again, first)
