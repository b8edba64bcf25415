"""A metadata column's values in their own order (numbers as numbers, dates as dates, else text) and the rows whose
value lies in a range: how one dataset becomes two sets, "before" and "after" a date. A blank value lies in no
range."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Ordered:
    """A column's values (`text`, stripped) and their keys to compare (NaN or NaT for a blank), read as `reading`."""

    text: pd.Series
    keys: pd.Series
    reading: str  # "numbers", "dates" or "text"

    @property
    def distinct(self) -> list[str]:
        """Each non-blank value once, in the column's order."""
        present = self.keys.notna()
        frame = pd.DataFrame({"key": self.keys[present], "text": self.text[present]})
        return frame.sort_values(["key", "text"], kind="stable")["text"].drop_duplicates().tolist()

    @property
    def blank(self) -> int:
        return int(self.keys.isna().sum())

    def within(self, low: str, high: str) -> np.ndarray:
        """The rows whose value lies from `low` to `high` (two of the column's values), both included."""
        first, last = sorted(self.keys[self.text == value].iloc[0] for value in (low, high))
        return np.flatnonzero(((self.keys >= first) & (self.keys <= last)).to_numpy())


def ordered(values: Sequence[object]) -> Ordered:
    text = pd.Series([("" if value is None else str(value)).strip() for value in values], dtype=str)
    blank = text == ""
    readings = (("numbers", lambda s: pd.to_numeric(s, errors="coerce")),
                ("dates", lambda s: pd.to_datetime(s, errors="coerce", format="mixed")))
    for reading, parse in readings:
        keys = parse(text.where(~blank))
        if (~blank).any() and keys[~blank].notna().all():
            return Ordered(text, keys, reading)
    return Ordered(text, text.where(~blank), "text")
