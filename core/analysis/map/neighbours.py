"""Neighbourhoods on a map: a point's nearest texts in the full space (and whether the map kept them near), what a
selection of points holds, and how two configurations' maps of the same texts differ."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.linalg import orthogonal_procrustes

from core.analysis.agreement import Overlap
from core.analysis.map.projection import map_neighbours
from core.analysis.neighbour_changes import changed_most
from core.analysis.search import top_k, unit_rows


def point_neighbours(vectors: np.ndarray, coords: np.ndarray, texts: Sequence[str], index: int, *,
                     k: int = 10) -> pd.DataFrame:
    """The point's k nearest other texts by cosine in the full space, and whether each is also among its k nearest
    on the map."""
    k = min(k, len(texts) - 1)
    if k < 1:
        return pd.DataFrame(columns=["rank", "#", "cosine", "near on the map", "text"])
    hits = top_k(unit_rows(vectors[[index]]), unit_rows(vectors), k, exclude=[{index}])
    on_map = set(map_neighbours(np.asarray(coords, dtype=np.float64), np.array([index]), k)[0].tolist())
    found = hits.indices[0]
    return pd.DataFrame({"rank": np.arange(1, len(found) + 1), "#": found, "cosine": hits.scores[0],
                         "near on the map": [int(i) in on_map for i in found], "text": [texts[i] for i in found]})


def selection_table(frame: pd.DataFrame, indices: Sequence[int], vectors: np.ndarray) -> pd.DataFrame:
    """The selected rows (their number, text and metadata) with each one's nearest other text in the full space."""
    chosen = [int(i) for i in indices]
    if not chosen:
        return frame.iloc[0:0].assign(**{"#": [], "nearest text": [], "cosine": []})
    hits = top_k(unit_rows(vectors[chosen]), unit_rows(vectors), 1, exclude=[{i} for i in chosen])
    table = frame.iloc[chosen].copy()
    table.insert(0, "#", chosen)
    table["nearest text"] = [frame["text"].iloc[int(j)] for j in hits.indices[:, 0]] if hits.indices.size else ""
    table["cosine"] = hits.scores[:, 0] if hits.scores.size else np.nan
    return table.reset_index(drop=True)


def align(reference: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """`coords` rotated, reflected, scaled and shifted onto `reference` (orthogonal Procrustes), so the same text
    sits in about the same place on both maps and movement means something."""
    a = np.asarray(reference, dtype=np.float64)
    b = np.asarray(coords, dtype=np.float64)
    a0, b0 = a - a.mean(axis=0), b - b.mean(axis=0)
    rotation, scale = orthogonal_procrustes(b0, a0)
    return b0 @ rotation * (scale / max(float((b0 ** 2).sum()), 1e-12)) + a.mean(axis=0)


def movers(texts: Sequence[str], overlap: Overlap, a_coords: np.ndarray, b_aligned: np.ndarray, *,
           top: int = 15) -> pd.DataFrame:
    """The texts whose neighbourhood changed most between two configurations (changed_most, both neighbour lists
    included), with how far each moved between the aligned maps, which breaks ties."""
    rows = overlap.rows
    moved = np.linalg.norm(np.asarray(a_coords, dtype=np.float64)[rows] - np.asarray(b_aligned)[rows], axis=1)
    return changed_most(texts, overlap, top=top, moved=moved)
