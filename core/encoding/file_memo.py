"""Files of vectors read once per version: what a cache file holds is kept in a memo keyed by the file's version, so
a file replaced on disk (every write renames a new file into place) is read again, and an unchanged one is not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import scipy.sparse as sp

from core.models.memo import EmbeddingMemo, Sized

Value = TypeVar("Value", bound=Sized | sp.csr_matrix)
Version = tuple[int, int, int]


def file_version(path: Path) -> Version | None:
    """What changes whenever the file is replaced; None when there is no file."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


class FileMemo:
    def __init__(self, max_bytes: int) -> None:
        self._memo = EmbeddingMemo(max_bytes)

    def read(self, path: Path, key: str, read: Callable[[Path, str], Value | None]) -> Value | None:
        """The file's contents for `key`, from the memo while the file is the version they were read from."""
        version = file_version(path)
        if version is None:
            return None
        hit = self._memo.get((key, version))
        if hit is not None:
            return hit[0]
        found = read(path, key)
        return None if found is None else self.remember(path, key, found, version)

    def remember(self, path: Path, key: str, value: Value, version: Version | None = None) -> Value:
        """`value` as the file now on disk holds it (just written, or just read as `version`)."""
        version = version or file_version(path)
        if version is not None:
            self._memo.put((key, version), value, False)
        return value

    def clear(self) -> None:
        self._memo.clear()
