"""A bounded least-recently-used memo, so that editing one text of ten re-encodes only that one."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock
from typing import Any, Protocol

import scipy.sparse as sp


class Sized(Protocol):
    """An array, or a value that says how many bytes of arrays it holds (a text's token vectors)."""

    @property
    def nbytes(self) -> int: ...


def held_bytes(value: Sized | sp.csr_matrix) -> int:
    """What an entry holds: its arrays' bytes, or a sparse matrix's three arrays'."""
    if isinstance(value, sp.csr_matrix):
        return int(value.data.nbytes + value.indices.nbytes + value.indptr.nbytes)
    return int(value.nbytes)


class EmbeddingMemo:
    """Least recently used entries go first once the arrays held pass `max_bytes` (their own bytes: callers store
    compact arrays or CSR matrices, never views into larger ones)."""

    def __init__(self, max_bytes: int = 192 * 2**20) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, tuple[Any, bool]] = OrderedDict()
        self._bytes = 0
        self._lock = Lock()

    def get(self, key: Hashable) -> tuple[Any, bool] | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key: Hashable, value: Sized | sp.csr_matrix, truncated: bool) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = (value, truncated)
            self._bytes += held_bytes(value)
            while self._bytes > self.max_bytes and len(self._items) > 1:
                _, (old, _) = self._items.popitem(last=False)
                self._bytes -= held_bytes(old)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
