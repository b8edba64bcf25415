"""Every corpus row's identity, kept by sampling, a map's selection and every export as the `row_id` column.

A row typed, uploaded or built in is known by its text's digest (an image by its file's bytes') with its place among
equal texts ("…:0" for the first row of a text, "…:1" for the second), so the same corpus uploaded again in another
order, or with rows added, names each row as before; a dataset folder's row by its own number there. A table that
already carries a `row_id` column (one this app exported) keeps it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

ROW_ID = "row_id"
DIGEST_BYTES = 8  # 16 hex characters: two different texts of one corpus share a digest with odds of 1 in 10^19


def text_row_ids(texts: Iterable[str]) -> list[str]:
    """Each text's digest, then a colon and how many rows of the same text came before it."""
    return placed(digest_of(text.encode("utf-8")) for text in texts)


def digest_of(content: bytes) -> str:
    """The digest of a row's bytes: a text's UTF-8, an image file's own bytes."""
    return hashlib.blake2b(content, digest_size=DIGEST_BYTES).hexdigest()


def placed(digests: Iterable[str]) -> list[str]:
    """Each digest with its place among equal ones: "…:0" the first time, "…:1" the second."""
    seen: dict[str, int] = {}
    ids = []
    for digest in digests:
        count = seen.get(digest, 0)
        seen[digest] = count + 1
        ids.append(f"{digest}:{count}")
    return ids


def numbered_row_ids(numbers: Iterable[int]) -> list[str]:
    """A dataset's rows, by their own numbers there."""
    return [str(int(number)) for number in numbers]


def given_row_ids(values: Sequence[object]) -> list[str] | None:
    """A table's own `row_id` column, where it names every row once; else None (the rows are then known by their
    texts)."""
    ids = ["" if value is None or (isinstance(value, float) and value != value) else str(value) for value in values]
    return ids if all(ids) and len(set(ids)) == len(ids) else None


def with_row_ids(frame: pd.DataFrame, *, numbers: Iterable[int] | None = None) -> pd.DataFrame:
    """`frame` (a `text` column and any others) with `row_id` first: its own where it has a valid one, else the
    dataset's `numbers`, else from its texts."""
    own = given_row_ids(frame[ROW_ID].tolist()) if ROW_ID in frame.columns else None
    ids = own if own is not None else numbered_row_ids(numbers) if numbers is not None else \
        text_row_ids(frame["text"].tolist())
    rest = frame.drop(columns=[ROW_ID], errors="ignore")
    return pd.concat([pd.DataFrame({ROW_ID: ids}, index=rest.index), rest], axis=1)


def positions_of(row_ids: Sequence[str], wanted: Iterable[str]) -> list[int]:
    """Where each wanted row is among `row_ids`, in their order there; rows not among them are left out."""
    asked = set(wanted)
    return [i for i, row in enumerate(row_ids) if row in asked]


@dataclass(frozen=True)
class Distinct:
    """Each distinct text once, first seen first, and for each row the place of its text among them."""

    texts: list[str]
    rows: np.ndarray


def distinct(texts: Sequence[str]) -> Distinct:
    place: dict[str, int] = {}
    rows = np.fromiter((place.setdefault(text, len(place)) for text in texts), dtype=np.int64, count=len(texts))
    return Distinct(list(place), rows)
