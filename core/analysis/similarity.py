"""Pairwise similarity matrices, their cluster order, summary numbers, and how two matrices differ."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import leaves_list, linkage, optimal_leaf_ordering
from scipy.spatial.distance import pdist, squareform
from sklearn.metrics.pairwise import cosine_similarity, euclidean_distances

from core.deployment import DeploymentConfig
from core.encoding.encoder import Embeddings, Progress, encode_with
from core.encoding.sparse import SparseEmbeddings
from core.models.loading import LoadedModel
from core.settings import Settings

Metric = Literal["cosine", "dot", "euclidean"]
METRICS: dict[Metric, str] = {"cosine": "cosine similarity", "dot": "dot product", "euclidean": "Euclidean distance"}


def limit_problems(texts: Sequence[str], config: DeploymentConfig) -> tuple[list[str], list[str]]:
    """The texts cut to the deployment's limits, and one sentence per limit that was passed."""
    problems = []
    kept = list(texts)
    if len(kept) > config.max_texts:
        problems.append(f"You entered {len(kept)} texts; the limit (max_texts) is {config.max_texts}, so only the "
                        f"first {config.max_texts} are shown. Remove lines, or raise max_texts in explorer.toml.")
        kept = kept[:config.max_texts]
    long = [i for i, text in enumerate(kept) if len(text) > config.max_chars_per_text]
    if long:
        numbers = ", ".join(str(i + 1) for i in long[:5]) + ("…" if len(long) > 5 else "")
        problems.append(f"Text(s) {numbers} exceed the limit (max_chars_per_text) of {config.max_chars_per_text:,} "
                        "characters and were cut there. Shorten them, or raise max_chars_per_text in explorer.toml.")
        kept = [text[:config.max_chars_per_text] for text in kept]
    return kept, problems


def duplicate_groups(texts: Sequence[str]) -> list[list[int]]:
    """Indices of texts that occur more than once, one list per repeated text."""
    seen: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        seen.setdefault(text, []).append(i)
    return [group for group in seen.values() if len(group) > 1]


def similarity_matrix(vectors: np.ndarray, metric: Metric = "cosine") -> np.ndarray:
    """(n, n) float64 matrix: cosine similarity, dot product, or Euclidean distance between rows."""
    x = np.asarray(vectors, dtype=np.float64)
    if metric == "cosine":
        return cosine_similarity(x)
    if metric == "dot":
        return x @ x.T
    if metric == "euclidean":
        return euclidean_distances(x)
    raise ValueError(f"Unknown metric {metric!r}; choose one of {', '.join(METRICS)}.")


def paired_cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine along the last axis: row i of `a` with row i of `b` for 2-D inputs."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    norms = np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-12)
    return (a * b).sum(axis=-1) / norms


def cluster_order(vectors: np.ndarray, metric: Metric = "cosine") -> list[int]:
    """Row order from average-linkage hierarchical clustering (optimal leaf order), so clusters form blocks.

    Cosine and dot product cluster by cosine distance (the dot product's scale says nothing about grouping);
    Euclidean clusters by Euclidean distance.
    """
    if len(vectors) < 3:
        return list(range(len(vectors)))
    return _leaf_order(pdist(np.asarray(vectors, dtype=np.float64), "euclidean" if metric == "euclidean" else "cosine"))


def order_by_distance(distances: np.ndarray) -> list[int]:
    """`cluster_order` from a square matrix of distances between the rows (for vectors that are not held dense)."""
    if len(distances) < 3:
        return list(range(len(distances)))
    return _leaf_order(squareform(np.asarray(distances, dtype=np.float64), checks=False))


def _leaf_order(condensed: np.ndarray) -> list[int]:
    distances = np.clip(np.nan_to_num(condensed, nan=1.0), 0.0, None)
    tree = linkage(distances, method="average")
    return [int(i) for i in leaves_list(optimal_leaf_ordering(tree, distances))]


def mean_off_diagonal(matrix: np.ndarray) -> float | None:
    """The mean of all entries off the diagonal (each pair counted once); None with fewer than two texts."""
    n = len(matrix)
    if n < 2:
        return None
    upper = np.triu_indices(n, k=1)
    return float(np.mean(np.asarray(matrix)[upper]))


def closest_pair(matrix: np.ndarray, metric: Metric = "cosine") -> tuple[int, int]:
    """The two different texts the matrix finds closest (highest similarity, or lowest distance); (0, 0) for one."""
    n = len(matrix)
    if n < 2:
        return 0, 0
    rows, cols = np.triu_indices(n, k=1)
    values = np.asarray(matrix)[rows, cols]
    best = int(np.argmin(values) if metric == "euclidean" else np.argmax(values))
    return int(rows[best]), int(cols[best])


def matrix_frame(matrix: np.ndarray, texts: Sequence[str], order: Sequence[int] | None = None) -> pd.DataFrame:
    """The matrix as a table labelled by the texts (numbered, so duplicates stay apart), in `order`."""
    order = list(range(len(texts))) if order is None else list(order)
    labels = [f"{i + 1}. {texts[i]}" for i in order]
    return pd.DataFrame(np.asarray(matrix)[np.ix_(order, order)], index=labels, columns=labels)


def moved_pairs(texts: Sequence[str], a: np.ndarray, b: np.ndarray, top: int = 10) -> pd.DataFrame:
    """The `top` pairs whose value changed most from matrix `a` to matrix `b`, largest |change| first."""
    rows, cols = np.triu_indices(len(texts), k=1)
    change = b[rows, cols] - a[rows, cols]
    picked = np.argsort(-np.abs(change), kind="stable")[:top]
    return pd.DataFrame({
        "change (B − A)": change[picked],
        "A": a[rows[picked], cols[picked]],
        "B": b[rows[picked], cols[picked]],
        "text 1": [texts[rows[k]] for k in picked],
        "text 2": [texts[cols[k]] for k in picked],
    })


@dataclass(frozen=True)
class TextSimilarity:
    """Texts embedded under one configuration (a sparse model's too) and compared pairwise; `order` is the cluster
    order if asked for."""

    embeddings: Embeddings | SparseEmbeddings
    matrix: np.ndarray
    order: list[int] | None

    @property
    def mean(self) -> float | None:
        return mean_off_diagonal(self.matrix)


def text_similarity(model: LoadedModel, texts: Sequence[str], settings: Settings, *, metric: Metric = "cosine",
                    reorder: bool = False, progress: Progress | None = None) -> TextSimilarity:
    """The pairwise matrix the Similarity page draws, from one encoding of the texts."""
    embeddings = encode_with(model, texts, settings, progress=progress)
    return TextSimilarity(embeddings, similarity_matrix(embeddings.vectors, metric),
                          cluster_order(embeddings.vectors, metric) if reorder else None)
