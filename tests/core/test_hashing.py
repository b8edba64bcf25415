import hashlib
import json

import numpy as np
import pytest

from core import hashing
from core.hashing import array_digest


def one_pass(array: np.ndarray, header: dict) -> str:
    data = np.ascontiguousarray(array, dtype="<f8")
    digest = hashlib.blake2b(json.dumps({**header, "shape": data.shape}, sort_keys=True).encode(), digest_size=20)
    digest.update(data.tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("array", [np.arange(12.0).reshape(3, 4), np.zeros((0, 5)), np.float32(3.0), np.arange(7),
                                   np.random.default_rng(0).random((1001, 3), dtype=np.float32)])
def test_the_digest_in_blocks_equals_one_pass_over_the_whole_array(array, monkeypatch):
    monkeypatch.setattr(hashing, "CHUNK_BYTES", 100)  # blocks of 4 rows of 3 values
    assert array_digest(array, {"v": 1}) == one_pass(array, {"v": 1})


def test_equal_values_of_another_dtype_give_the_same_key_and_any_change_another():
    values = np.random.default_rng(1).random((50, 4)).astype(np.float32)
    assert array_digest(values, {}) == array_digest(values.astype(np.float64), {})
    changed = values.copy()
    changed[49, 3] += 1e-3
    assert array_digest(changed, {}) != array_digest(values, {})
    assert array_digest(values, {"k": 1}) != array_digest(values, {"k": 2})


def test_a_read_only_array_is_hashed_once_to_the_digest_of_its_values(monkeypatch):
    values = np.random.default_rng(0).normal(size=(50, 4)).astype(np.float32)
    fixed = values.copy()
    fixed.flags.writeable = False
    header = {"method": "UMAP"}
    assert array_digest(fixed, header) == array_digest(values, header)
    reads = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: reads.append(1) or real(*a, **k))
    assert array_digest(fixed, header) == array_digest(values.copy(), header)
    assert len(reads) == 1  # the writable copy's one block was read; the read-only array's digest was kept
    assert array_digest(fixed, {"method": "t-SNE"}) != array_digest(fixed, header)  # kept per header
