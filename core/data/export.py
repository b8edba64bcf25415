"""Tables as they leave the app: text cells that a spreadsheet would run as a formula are defused."""

from __future__ import annotations

import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def defuse(value: object) -> object:
    """Prefix a text cell that starts like a formula with an apostrophe (OWASP's CSV-injection advice)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose text cells, index labels and column names cannot start a spreadsheet formula."""
    safe = frame.copy()
    for i in range(safe.shape[1]):  # by position: column names may repeat (e.g. tokens)
        column = safe.iloc[:, i]
        if column.dtype == object or pd.api.types.is_string_dtype(column):
            safe.isetitem(i, column.map(defuse))
    safe.index = safe.index.map(defuse)
    safe.columns = safe.columns.map(defuse)
    return safe
