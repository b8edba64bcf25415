"""Which texts' neighbourhoods changed most between two spaces of the same texts, and a text's neighbours in each
(from an Overlap of core.analysis.agreement)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.analysis.agreement import Overlap


def _numbers(rows: np.ndarray) -> str:
    return " ".join(f"#{int(i)}" for i in rows)


def changed_most(texts: Sequence[str], overlap: Overlap, *, top: int = 15,
                 moved: np.ndarray | None = None) -> pd.DataFrame:
    """The measured texts whose k nearest neighbours differ most between A and B, most changed first, with both
    neighbour lists as text numbers; `moved` (one value per measured text: how far it moved between two maps) adds a
    column and breaks ties."""
    changed = 1 - overlap.per_text
    order = np.lexsort((np.zeros(len(changed)) if moved is None else -np.asarray(moved), -changed))[:top]
    rows = overlap.rows[order]
    table = pd.DataFrame({"#": rows, "neighbours changed": changed[order]})
    if moved is not None:
        table["moved on the map"] = np.asarray(moved)[order]
    table["text"] = [texts[i] for i in rows]
    table["neighbours in A"] = [_numbers(overlap.neighbours_a[j]) for j in order]
    table["neighbours in B"] = [_numbers(overlap.neighbours_b[j]) for j in order]
    return table


def neighbour_lists(texts: Sequence[str], overlap: Overlap, row: int) -> pd.DataFrame:
    """Text `row`'s k nearest others in A and in B side by side, nearest first, each marked where the other space
    has it too. `row` must be one of the measured texts."""
    where = int(np.searchsorted(overlap.rows, row))
    if where >= len(overlap.rows) or overlap.rows[where] != row:
        raise ValueError(f"Text #{row} is not among the {len(overlap.rows):,} texts whose neighbours were measured.")
    near_a, near_b = overlap.neighbours_a[where], overlap.neighbours_b[where]
    return pd.DataFrame({"rank": np.arange(1, len(near_a) + 1),
                         "A: #": near_a, "A: text": [texts[i] for i in near_a],
                         "A: also in B": np.isin(near_a, near_b),
                         "B: #": near_b, "B: text": [texts[i] for i in near_b],
                         "B: also in A": np.isin(near_b, near_a)})
