"""The modality gap (Liang et al. 2022, "Mind the Gap"): a model that embeds images and texts in one space puts each
modality in a cone of its own. Measured on unit-length vectors: the distance between the two modalities' centroids,
and the share of all the vectors' variance that lies along the line between them. Closing it here centres each
modality on its own centroid (then back to unit length), so that what the gap does to a ranking can be read off the
same ranking with it closed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.analysis.search import unit_rows


@dataclass(frozen=True)
class ModalityGap:
    distance: float  # ‖mean image − mean text‖ of the unit vectors (0: none; 2 at most)
    variance_share: float  # of the total variance of all the unit vectors, the share along the gap's direction
    direction: np.ndarray  # the unit vector from the texts' centroid to the images'
    images: int
    texts: int


def modality_gap(images: np.ndarray, texts: np.ndarray) -> ModalityGap:
    """The gap between image vectors and text vectors (each made unit length first); ValueError in one sentence
    where either side is empty."""
    if len(images) == 0 or len(texts) == 0:
        raise ValueError("The modality gap needs at least one image and one text.")
    a, b = unit_rows(images).astype(np.float64), unit_rows(texts).astype(np.float64)
    gap = a.mean(axis=0) - b.mean(axis=0)
    distance = float(np.linalg.norm(gap))
    direction = gap / distance if distance > 0 else np.zeros_like(gap)
    both = np.vstack([a, b])
    centred = both - both.mean(axis=0)
    total = float(np.einsum("ij,ij->", centred, centred))
    along = float(np.sum((centred @ direction) ** 2))
    return ModalityGap(distance, along / total if total > 0 else 0.0, direction, len(a), len(b))


def closed(vectors: np.ndarray) -> np.ndarray:
    """One modality's vectors with the gap closed: unit length, centred on their own centroid, unit length again."""
    unit = unit_rows(vectors).astype(np.float64)
    return unit_rows(unit - unit.mean(axis=0)).astype(np.float32)
