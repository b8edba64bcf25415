"""What a group of points is about, and which points a search matches: the tools that make a map workable.

Cluster keywords are class-based TF-IDF, as embedding-atlas labels its clusters: each cluster's texts are joined
into one document, scikit-learn's TfidfVectorizer weighs the words of those documents against each other, and a
cluster's keywords are its highest-weighted words (English stop words left out)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer

EXAMPLES = 3
INSIDE = "selected"  # the selection's name among the clusters `selection_keywords` weighs


def cluster_keywords(texts: Sequence[str], labels: Sequence[object], *, top: int = 5) -> pd.DataFrame:
    """One row per cluster, largest first: its label, size, top keywords and a few example texts."""
    frame = pd.DataFrame({"text": list(texts), "cluster": [str(label) for label in labels]})
    groups = frame.groupby("cluster", sort=False)["text"]
    names = list(groups.groups)
    documents = [" ".join(groups.get_group(name)) for name in names]
    try:
        vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True)
        weights = vectorizer.fit_transform(documents).toarray()
        vocabulary = vectorizer.get_feature_names_out()
        keywords = [", ".join(vocabulary[i] for i in np.argsort(-row, kind="stable")[:top] if row[i] > 0)
                    for row in weights]
    except ValueError:  # no word of two letters or more in any cluster
        keywords = [""] * len(names)
    table = pd.DataFrame({"cluster": names, "size": [len(groups.get_group(n)) for n in names],
                          "keywords": keywords,
                          "examples": [" | ".join(groups.get_group(n).head(EXAMPLES)) for n in names]})
    return table.sort_values("size", ascending=False, kind="stable").reset_index(drop=True)


def selection_keywords(texts: Sequence[str], chosen: Sequence[int], *, top: int = 8) -> str:
    """What a selection is about: its top words against the other texts, by the same class-based TF-IDF."""
    inside = np.zeros(len(texts), dtype=bool)
    inside[np.asarray(chosen, dtype=np.int64)] = True
    table = cluster_keywords(texts, np.where(inside, INSIDE, "rest").tolist(), top=top)
    return str(table.loc[table["cluster"] == INSIDE, "keywords"].iloc[0])


def matching(texts: Sequence[str], pattern: str, *, regex: bool = False) -> np.ndarray:
    """Which texts contain `pattern` (case-insensitive), as a word or a regular expression; ValueError with the
    reason when a regular expression does not compile."""
    if not pattern:
        return np.zeros(len(texts), dtype=bool)
    try:
        compiled = re.compile(pattern if regex else re.escape(pattern), re.IGNORECASE)
    except re.error as err:
        raise ValueError(f"“{pattern}” is not a regular expression Python reads ({err}); fix it or search for "
                         "plain text.") from err
    return np.array([compiled.search(text) is not None for text in texts], dtype=bool)


def spherize(vectors: np.ndarray, *, centre: np.ndarray | None = None) -> np.ndarray:
    """Centre the vectors on their mean (or on `centre`, to place a query in a corpus's centred space) and scale
    each to unit length: what is left is what sets texts apart, not the direction they all share (the anisotropy
    of raw and untrained layers)."""
    vectors = np.asarray(vectors, dtype=np.float64)
    centred = vectors - (np.mean(vectors, axis=0) if centre is None else centre)
    return centred / np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-12)
