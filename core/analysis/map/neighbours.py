"""Neighbourhoods on a map: a point's nearest texts in the full space (and whether the map kept them near), what a
selection of points holds, and how two configurations' maps of the same texts differ."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.linalg import orthogonal_procrustes

from core.analysis.map.projection import TRUST_POINTS, map_neighbours
from core.analysis.search import top_k, unit_rows
from core.data.sampling import sample_indices


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


def movers(texts: Sequence[str], a_vectors: np.ndarray, b_vectors: np.ndarray, a_coords: np.ndarray,
           b_aligned: np.ndarray, *, k: int = 10, top: int = 15, max_points: int = TRUST_POINTS,
           seed: int = 0) -> pd.DataFrame:
    """The texts whose neighbourhood changed most between two configurations: the share of their k nearest
    neighbours (full space, cosine, searched among all texts) that differ, and how far they moved between the
    aligned maps; among at most `max_points` texts (a seeded sample), as the map's trust is measured."""
    k = min(k, len(texts) - 1)
    if k < 1:
        return pd.DataFrame(columns=["#", "neighbours changed", "moved on the map", "text"])
    points = sample_indices(len(texts), limit=max_points, seed=seed)
    exclude = [{int(i)} for i in points]
    a_near, b_near = (top_k(unit_rows(v)[points], unit_rows(v), k, exclude=exclude).indices
                      for v in (a_vectors, b_vectors))
    changed = np.array([1 - len(set(x) & set(y)) / k for x, y in zip(a_near, b_near)])
    moved = np.linalg.norm(np.asarray(a_coords, dtype=np.float64)[points] - np.asarray(b_aligned)[points], axis=1)
    order = np.lexsort((-moved, -changed))[:top]
    return pd.DataFrame({"#": points[order], "neighbours changed": changed[order], "moved on the map": moved[order],
                         "text": [texts[i] for i in points[order]]})
