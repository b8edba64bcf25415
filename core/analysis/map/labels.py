"""Labels for a map at every zoom level, as Embedding Atlas places them: a few coarse clusters far out, finer ones
close in. Level 0 is the colouring's clusters when it has them (else k-means of the map); each finer level is
k-means of the map's positions with three times as many clusters (each k-means, above KEYWORD_TEXTS positions, fitted
on the keywords' seeded sample, which then places every point: fitted on all of 1,000,000 it took 20 s). A label is its
cluster's two top keywords (class-based TF-IDF, `cluster_keywords`) at the median position of its points; two
clusters of one level with the same two are told apart by a keyword of their own, or made one label."""

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
        words = [word for word in str(row.keywords).split(", ") if word]
        if words:
            found.append((MapLabel(float(x), float(y), ", ".join(words[:2]), level, int(members.sum())), words))
    return _told_apart(found)


def _told_apart(found: list[tuple[MapLabel, list[str]]]) -> list[MapLabel]:
    """One level's labels, each text once among its clusters': clusters whose two top keywords are the same are
    named by their first keyword and the first of their own that none of the others has; where one has none, they
    are one label, at the mean of their places weighed by their sizes."""
    alike: dict[str, list[tuple[MapLabel, list[str]]]] = {}
    for label, words in found:
        alike.setdefault(label.text, []).append((label, words))
    labels = []
    for same in alike.values():
        if len(same) == 1:
            labels.append(same[0][0])
            continue
        renamed = []
        for i, (label, words) in enumerate(same):
            others = {word for j, (_, their) in enumerate(same) if j != i for word in their}
            own = next((word for word in words[2:] if word not in others), None)
            renamed.append(None if own is None else label._replace(text=f"{words[0]}, {own}"))
        if all(renamed):
            labels += [label for label in renamed if label is not None]
        else:
            sizes = np.array([label.size for label, _ in same], dtype=np.float64)
            x, y = np.average([[label.x, label.y] for label, _ in same], axis=0, weights=sizes)
            labels.append(same[0][0]._replace(x=float(x), y=float(y), size=int(sizes.sum())))
    return labels


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
