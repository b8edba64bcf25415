"""Labels for a map at every zoom level, as Embedding Atlas places them: a few coarse clusters far out, finer ones
close in. Level 0 is the colouring's clusters when it has them (else k-means of the map); each finer level is
k-means of the map's positions with three times as many clusters (each k-means, above KEYWORD_TEXTS positions, fitted
on the keywords' seeded sample, which then places every point: fitted on all of 1,000,000 it took 20 s). A label is its
cluster's two top keywords (class-based TF-IDF, `cluster_keywords`) at the median position of its points."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.cluster import MiniBatchKMeans

from core.analysis.map.clusters import cluster_keywords
from core.analysis.map.projection import NOISE
from core.data.sampling import sample_indices

LEVELS = 3
FINER = 3  # clusters of a level over the level before it
COARSE = 8  # level 0's clusters when the colouring has none
MIN_POINTS = 12  # the fewest points in an average cluster of a level; fewer points stop the finer levels
KEYWORD_TEXTS = 20_000  # keywords are weighed, and each level's k-means fitted, on a seeded sample of this many


class MapLabel(NamedTuple):
    x: float
    y: float
    text: str
    level: int
    size: int  # points in its cluster


def _labels_of(coords: np.ndarray, texts: Sequence[str], clusters: np.ndarray, level: int,
               picked: np.ndarray) -> list[MapLabel]:
    codes, names = pd.factorize(np.asarray(clusters).astype(str))  # a cluster's members by number: quicker
    table = cluster_keywords([texts[i] for i in picked], names[codes[picked]])
    number = {name: i for i, name in enumerate(names)}
    found = []
    for row in table[table["cluster"] != NOISE].itertuples():
        members = codes == number[row.cluster]
        x, y = np.median(coords[members], axis=0)
        words = ", ".join(str(row.keywords).split(", ")[:2])
        if words:
            found.append(MapLabel(float(x), float(y), words, level, int(members.sum())))
    return found


def zoom_labels(coords: np.ndarray, texts: Sequence[str], clusters: np.ndarray | None = None, *,
                seed: int = 0) -> list[MapLabel]:
    """Labels of every level, coarsest first; `clusters` (one label per point) make level 0."""
    xy = np.asarray(coords, dtype=np.float64)
    picked = sample_indices(len(xy), limit=KEYWORD_TEXTS, seed=seed)
    fitted = picked if len(picked) < len(xy) else None
    k = COARSE if clusters is None else len(set(np.asarray(clusters).astype(str).tolist()) - {NOISE})
    labels: list[MapLabel] = []
    for level in range(LEVELS):
        if clusters is None or level > 0:
            if len(xy) < k * MIN_POINTS:
                break
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Number of distinct clusters")
                kmeans = MiniBatchKMeans(n_clusters=k, random_state=seed, n_init=3, batch_size=4096)
                clusters = kmeans.fit_predict(xy) if fitted is None else kmeans.fit(xy[fitted]).predict(xy)
        labels += _labels_of(xy, texts, clusters, level, picked)
        k *= FINER
    return labels
