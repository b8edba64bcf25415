"""What a map refuses, each in one sentence that says what to do: texts that are not strings or too many to draw, an
unknown projection, too few points or points that cannot be projected, coordinates that are not finite numbers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from core.analysis.map.methods import METHODS, Method
from core.analysis.map.projection import MAX_POINTS, check_rows


def map_texts(texts: Iterable[object]) -> list[str]:
    # a Series's tolist: iterating a column of Arrow strings took 0.6 s at 1,000,000, tolist 0.08 s
    given = [texts] if isinstance(texts, str) else texts.tolist() if isinstance(texts, pd.Series) else list(texts)
    listed = [text for text in given if isinstance(text, str)]
    if len(listed) != len(given):
        raise TypeError("Give texts as strings, one per point.")
    if not listed:
        raise ValueError("There are no texts: a map needs at least one point.")
    if len(listed) > MAX_POINTS:
        raise ValueError(f"A map draws at most {MAX_POINTS:,} points, not {len(listed):,}; take a sample.")
    return listed


def map_method(method: str) -> Method:
    for known in METHODS:
        if method == known:
            return known
    raise ValueError(f"Unknown method {method!r}; choose one of {', '.join(METHODS)}.")


def check_labels(labels: Sequence[object] | None, count: int) -> None:
    if labels is not None and len(labels) != count:
        raise ValueError(f"There are {len(labels):,} labels and {count:,} texts: give one label per text.")


def check_projectable(vectors: np.ndarray) -> None:
    """check_rows's refusals (NaN or infinite values, every vector the same), with too few points said in one
    sentence."""
    if len(vectors) < 2:
        raise ValueError(f"A map is projected from at least 2 texts, not {len(vectors)}; give more.")
    check_rows(vectors)


def coordinate(column: pd.Series, name: str) -> np.ndarray:
    try:
        return np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"The column {name!r} holds values that are not numbers; give coordinates as numbers.") \
            from None


def check_coords(coords: np.ndarray) -> None:
    bad = np.flatnonzero(~np.isfinite(coords).all(axis=1))
    if bad.size:
        shown = ", ".join(f"{row:,}" for row in bad[:5]) + (", …" if bad.size > 5 else "")
        raise ValueError(f"{bad.size:,} point(s) have NaN or infinite coordinates (rows {shown}); remove or fix "
                         "those rows.")
