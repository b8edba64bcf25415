"""2-D maps of embeddings (PCA, t-SNE, UMAP), where a query lands on them, and how far to trust them.

Every function is pure over arrays. A method that cannot run on the points it is given raises a
ValueError whose message is one sentence with the way forward, so a page can fall back to PCA.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, TypeVar

import numpy as np
import pandas as pd
from openTSNE import TSNE as OpenTSNE
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.manifold import trustworthiness
from sklearn.neighbors import NearestNeighbors

from core.analysis.search import top_k, unit_rows
from core.data.sampling import sample_indices

Method = Literal["PCA", "t-SNE", "UMAP"]
Fitted = TypeVar("Fitted")  # a model fitted on a sample: openTSNE's TSNEEmbedding, umap-learn's UMAP


@dataclass(frozen=True)
class ProjectionParams:
    """What a map's projection depends on besides its points: the keywords `project` takes."""

    method: Method = "PCA"
    perplexity: float = 30.0
    neighbours: int = 15
    min_dist: float = 0.1
    seed: int = 0

    def options(self) -> dict[str, object]:
        return asdict(self)

    def umap_options(self) -> dict[str, object]:
        """What an aligned UMAP of two spaces depends on."""
        return {"neighbours": self.neighbours, "min_dist": self.min_dist, "seed": self.seed}
METHODS: tuple[Method, ...] = ("PCA", "t-SNE", "UMAP")
MAX_POINTS = 5_000_000  # every point drawn by the map canvas: its times at 100,000 and 1,000,000 are in `make bench`
FIT_POINTS = 50_000  # above it, t-SNE, UMAP and k-means are fitted on a seeded sample and place the rest
CHUNK = 100_000  # rows read, checked and placed at a time, so millions of float32 rows are never copied whole
TRUST_NEIGHBOURS = 10
TRUST_POINTS = 4_000  # above it, trust is measured on a seeded sample (scikit-learn's trustworthiness needs n x n)


@dataclass(frozen=True)
class Projection:
    """2-D coordinates of n points. PCA also keeps its mean and axes, so new points can be transformed."""

    coords: np.ndarray
    method: Method
    params: dict[str, float | int] = field(default_factory=dict)
    explained_variance: np.ndarray | None = None  # share of the variance per PCA component
    mean: np.ndarray | None = None
    components: np.ndarray | None = None


@dataclass(frozen=True)
class Trust:
    """How well 2-D neighbourhoods match the full space, measured on `points` points (all, or a seeded sample):
    their neighbour overlap and scikit-learn's trustworthiness."""

    overlap: np.ndarray  # per point: share of its k full-space neighbours among its k 2-D ones; NaN if not measured
    k: int
    trustworthiness: float | None  # None when there are too few points for k neighbours
    points: int

    @property
    def mean_overlap(self) -> float:
        return float(np.nanmean(self.overlap))

    @property
    def sampled(self) -> bool:
        return self.points < len(self.overlap)


def _chunks(n: int) -> Iterator[slice]:
    for start in range(0, n, CHUNK):
        yield slice(start, min(start + CHUNK, n))


def check_rows(vectors: np.ndarray, *, minimum: int = 2, method: str = "A map") -> None:
    """A ValueError saying what is wrong unless `vectors` is (n, d) with finite values, at least `minimum` points
    and not all the same; read a chunk at a time, so a memory-mapped dataset is not copied."""
    shape = np.shape(vectors)
    if len(shape) != 2:
        raise ValueError(f"Expected a table of vectors (points x dimensions), got an array of shape {shape}.")
    bad = sum(int((~np.isfinite(vectors[rows]).all(axis=1)).sum()) for rows in _chunks(shape[0]))
    if bad:
        raise ValueError(f"{bad} vector(s) hold NaN or infinite values; remove or fix those rows.")
    if shape[0] < minimum:
        raise ValueError(f"{method} needs at least {minimum} points; there {'is' if shape[0] == 1 else 'are'} "
                         f"{shape[0]}. Add more texts.")
    first = np.asarray(vectors[0])
    if not any((np.asarray(vectors[rows]) != first).any() for rows in _chunks(shape[0])):
        raise ValueError(f"All {shape[0]} points have the same vector (identical texts?), so there is nothing "
                         "to spread out; use texts that differ.")


def check_vectors(vectors: np.ndarray, *, minimum: int = 2, method: str = "A map") -> np.ndarray:
    """float64 (n, d) with finite values and at least `minimum` points, or a ValueError saying what is wrong."""
    check_rows(vectors, minimum=minimum, method=method)
    return np.asarray(vectors, dtype=np.float64)


def pca_projection(vectors: np.ndarray) -> Projection:
    """Exact PCA, as scikit-learn's `covariance_eigh` solver computes it (the same axes and signs), but with the
    mean and covariance summed a chunk at a time in float64: scikit-learn's PCA needs the whole matrix in memory,
    15 GB for 5,000,000 float64 rows of 384 dimensions."""
    check_rows(vectors)
    n = len(vectors)
    mean = sum(np.asarray(vectors[rows], dtype=np.float64).sum(axis=0) for rows in _chunks(n)) / n
    covariance = sum((x := np.asarray(vectors[rows], dtype=np.float64) - mean).T @ x for rows in _chunks(n)) / (n - 1)
    variances, axes = np.linalg.eigh(covariance)
    order = np.argsort(variances)[::-1][:2]
    components = axes[:, order].T
    components *= np.sign(components[np.arange(2), np.abs(components).argmax(axis=1)])[:, None]  # svd_flip's rule
    coords = np.vstack([(np.asarray(vectors[rows], dtype=np.float64) - mean) @ components.T for rows in _chunks(n)])
    total = float(np.trace(covariance))
    explained = variances[order] / total if total > 0 else np.zeros(2)
    return Projection(coords=coords, method="PCA", explained_variance=np.clip(explained, 0, None), mean=mean,
                      components=components)


def _tsne(x: np.ndarray, perplexity: float, seed: int) -> Any:  # openTSNE's TSNEEmbedding: it places new points
    limit = (len(x) - 1) / 3  # each point's neighbourhood is 3 x perplexity of the other points
    if perplexity > limit:
        raise ValueError(f"t-SNE's perplexity ({perplexity:g}) can be at most a third of the other points "
                         f"({limit:.3g} for {len(x)} points); lower it or use PCA.")
    return OpenTSNE(perplexity=perplexity, metric="cosine", initialization="pca", random_state=seed,
                    n_jobs=-1).fit(x)


def tsne_projection(vectors: np.ndarray, *, perplexity: float = 30.0, seed: int = 0) -> Projection:
    """openTSNE's FFT-accelerated t-SNE on cosine distances, initialised with PCA (the same map for one seed). At
    equal trustworthiness it took 0.68x scikit-learn's time on 15,457 points and the same on 5,000 (`make bench`).
    Above FIT_POINTS points, fitted on a seeded sample that then places the others (`fit_then_place`)."""
    check_rows(vectors, minimum=4, method="t-SNE")
    return fit_then_place(vectors, lambda x: _tsne(x, perplexity, seed), lambda fitted: np.asarray(fitted),
                          lambda fitted, x: np.asarray(fitted.transform(x)), "t-SNE",
                          {"perplexity": perplexity, "seed": seed}, seed)


def _umap(x: np.ndarray, neighbours: int, min_dist: float, seed: int) -> Any:  # a fitted umap.UMAP
    _check_neighbours(neighbours, len(x))
    import umap  # here: its first use compiles with numba

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*n_jobs value.*")  # seeding makes it single-threaded
        return umap.UMAP(n_components=2, n_neighbors=neighbours, min_dist=min_dist, metric="cosine",
                         random_state=seed).fit(x)


def umap_projection(vectors: np.ndarray, *, neighbours: int = 15, min_dist: float = 0.1,
                    seed: int = 0) -> Projection:
    """umap-learn on cosine distances; above FIT_POINTS points, fitted on a seeded sample that then places the
    others with umap-learn's `transform`."""
    check_rows(vectors, minimum=4, method="UMAP")
    return fit_then_place(vectors, lambda x: _umap(x, neighbours, min_dist, seed), lambda fitted: fitted.embedding_,
                          lambda fitted, x: fitted.transform(x), "UMAP",
                          {"neighbours": neighbours, "min_dist": min_dist, "seed": seed}, seed)


def fit_then_place(vectors: np.ndarray, fit: Callable[[np.ndarray], Fitted],
                   fitted_coords: Callable[[Fitted], np.ndarray], place: Callable[[Fitted, np.ndarray], np.ndarray],
                   method: Method, params: dict[str, float | int], seed: int) -> Projection:
    """`fit` on every point, or above FIT_POINTS on a seeded sample of that many, whose positions it keeps; the
    fitted model's own `place` (openTSNE's and umap-learn's `transform`) puts every other point, a chunk at a time."""
    n = len(vectors)
    fitted_rows = sample_indices(n, limit=FIT_POINTS, seed=seed)
    fitted = fit(np.asarray(vectors[fitted_rows], dtype=np.float64))
    coords = np.empty((n, 2))
    coords[fitted_rows] = fitted_coords(fitted)
    if len(fitted_rows) == n:
        return Projection(coords=coords, method=method, params=params)
    rest = np.setdiff1d(np.arange(n), fitted_rows)
    for start in range(0, len(rest), CHUNK):
        rows = rest[start:start + CHUNK]
        coords[rows] = place(fitted, np.asarray(vectors[rows], dtype=np.float64))
    return Projection(coords=coords, method=method, params={**params, "fitted_on": len(fitted_rows)})


def _check_neighbours(neighbours: int, n: int) -> None:
    if neighbours >= n:
        raise ValueError(f"UMAP's neighbours ({neighbours}) must be fewer than the number of points ({n}); "
                         f"lower it below {n} or use PCA.")
    if neighbours < 2:
        raise ValueError("UMAP needs at least 2 neighbours; raise the neighbours setting.")


def aligned_umap(a: np.ndarray, b: np.ndarray, *, neighbours: int = 15, min_dist: float = 0.1,
                 seed: int = 0) -> tuple[Projection, Projection]:
    """umap-learn's AlignedUMAP of the same texts in two spaces: each laid out as UMAP lays it out, every text kept
    near its place in the other map, so that a text which moves between them moved in the embeddings."""
    xa = check_vectors(a, minimum=4, method="UMAP")
    xb = check_vectors(b, minimum=4, method="UMAP")
    if len(xa) != len(xb):
        raise ValueError(f"Aligned maps need the same texts in both spaces, not {len(xa)} and {len(xb)} points.")
    _check_neighbours(neighbours, len(xa))
    import umap

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*n_jobs value.*")
        fitted = umap.AlignedUMAP(n_neighbors=neighbours, min_dist=min_dist, metric="cosine",
                                  random_state=seed).fit([xa, xb], relations=[{i: i for i in range(len(xa))}])
    params = {"neighbours": neighbours, "min_dist": min_dist, "seed": seed}
    first, second = (Projection(coords=np.asarray(c, dtype=np.float64), method="UMAP", params=params)
                     for c in fitted.embeddings_)
    return first, second


def project(vectors: np.ndarray, *, method: Method, perplexity: float = 30.0, neighbours: int = 15,
            min_dist: float = 0.1, seed: int = 0) -> Projection:
    if method == "PCA":
        return pca_projection(vectors)
    if method == "t-SNE":
        return tsne_projection(vectors, perplexity=perplexity, seed=seed)
    if method == "UMAP":
        return umap_projection(vectors, neighbours=neighbours, min_dist=min_dist, seed=seed)
    raise ValueError(f"Unknown method {method!r}; choose one of {', '.join(METHODS)}.")


def nearest(vectors: np.ndarray, queries: np.ndarray, *, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices and cosine similarities of each query's k nearest points, best first."""
    hits = top_k(unit_rows(queries), unit_rows(vectors), k)
    return hits.indices, hits.scores


def place_queries(projection: Projection, vectors: np.ndarray, queries: np.ndarray, *, k: int = 10) -> np.ndarray:
    """2-D positions for new points: PCA transforms them; t-SNE and UMAP have no transform, so each query
    goes to the mean 2-D position of its k nearest points (cosine, full space)."""
    queries = np.asarray(queries, dtype=np.float64)
    if projection.method == "PCA" and projection.components is not None:
        return (queries - projection.mean) @ projection.components.T
    indices, _ = nearest(vectors, queries, k=k)
    return projection.coords[indices].mean(axis=1)


def map_ranks(coords: np.ndarray, position: np.ndarray, points: np.ndarray) -> np.ndarray:
    """1-based rank of each of `points` among all points by 2-D distance from `position` (1 = closest on
    the map), to set beside their rank in the full space."""
    distances = np.linalg.norm(np.asarray(coords, dtype=np.float64) - np.asarray(position, dtype=np.float64),
                               axis=1)
    order = np.argsort(distances, kind="stable")
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(1, len(order) + 1)
    return ranks[np.asarray(points, dtype=np.int64)]


@dataclass(frozen=True)
class PlacedQuery:
    """A query on a map: its 2-D position and its nearest texts, with their cosine and rank in both spaces."""

    position: tuple[float, float]
    neighbours: pd.DataFrame  # rank (full space), cosine, rank on the map, #, text


def place_query(projection: Projection, vectors: np.ndarray, query_vector: np.ndarray, texts: Sequence[str], *,
                k: int) -> PlacedQuery:
    """Where the query lands (`place_queries`) and its k nearest texts by cosine in the full space; "rank on the
    map" counts from the point nearest to it on the map, so a large one shows where the map misleads."""
    indices, scores = nearest(vectors, query_vector, k=k)
    position = place_queries(projection, vectors, query_vector, k=k)[0]
    table = pd.DataFrame({"rank (full space)": np.arange(1, len(indices[0]) + 1), "cosine": scores[0],
                          "rank on the map": map_ranks(projection.coords, position, indices[0]), "#": indices[0],
                          "text": [texts[i] for i in indices[0]]})
    return PlacedQuery((float(position[0]), float(position[1])), table)


def map_neighbours(coords: np.ndarray, points: np.ndarray, k: int) -> np.ndarray:
    """Each of `points`' k nearest other points on the map (Euclidean; the point itself left out, not a duplicate
    lying on it)."""
    found = NearestNeighbors(n_neighbors=k + 1).fit(coords).kneighbors(coords[points], return_distance=False)
    keep = found != points[:, None]
    keep[keep.all(axis=1), -1] = False  # a duplicate came before the point itself: drop the farthest instead
    return found[keep].reshape(len(points), k)


def neighbour_overlap(vectors: np.ndarray, coords: np.ndarray, *, k: int = TRUST_NEIGHBOURS,
                      points: np.ndarray | None = None) -> np.ndarray:
    """For each of `points` (all by default), the share of its k nearest neighbours in the full space (cosine)
    that are also among its k nearest on the map (Euclidean), both searched among all points. 1 everywhere means
    the map keeps every neighbourhood."""
    n = len(coords)
    k = min(k, n - 1)
    if k < 1:
        raise ValueError("Neighbour overlap needs at least 2 points.")
    points = np.arange(n) if points is None else np.asarray(points, dtype=np.int64)
    vectors = unit_rows(vectors)
    high = top_k(vectors[points], vectors, k, exclude=[(int(i),) for i in points]).indices
    low = map_neighbours(np.asarray(coords, dtype=np.float64), points, k)
    return (high[:, :, None] == low[:, None, :]).any(axis=2).sum(axis=1) / k


def trust(vectors: np.ndarray, coords: np.ndarray, *, k: int = TRUST_NEIGHBOURS, seed: int = 0,
          max_points: int = TRUST_POINTS) -> Trust:
    """Neighbour overlap and scikit-learn's trustworthiness (cosine in the full space) on at most `max_points`
    points, a seeded sample: the overlap searches each sampled point's neighbours among all points, the
    trustworthiness only among the sample, since it needs all their pairwise distances."""
    coords = np.asarray(coords, dtype=np.float64)  # the vectors stay as given (memory-mapped, float32)
    picked = sample_indices(len(coords), limit=max_points, seed=seed)
    overlap = np.full(len(coords), np.nan)
    overlap[picked] = neighbour_overlap(vectors, coords, k=k, points=picked)
    used = min(k, len(coords) - 1)
    score = None
    if used < len(picked) / 2:  # scikit-learn's condition
        score = float(trustworthiness(np.asarray(vectors[picked], dtype=np.float64), coords[picked],
                                      n_neighbors=used, metric="cosine"))
    return Trust(overlap=overlap, k=used, trustworthiness=score, points=len(picked))


def kmeans_clusters(vectors: np.ndarray, *, k: int, seed: int = 0) -> np.ndarray:
    """k-means cluster labels 0..k-1 (scikit-learn, seeded); above FIT_POINTS points the centres are fitted on a
    seeded sample and every point takes its nearest centre."""
    n = len(vectors)
    if k < 1 or k > n:
        raise ValueError(f"k-means needs between 1 and {n} clusters for {n} points, not {k}.")
    sample = np.asarray(vectors[sample_indices(n, limit=FIT_POINTS, seed=seed)], dtype=np.float64)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Number of distinct clusters")  # identical texts
        fitted = KMeans(n_clusters=k, n_init="auto", random_state=seed).fit(sample)
    if len(sample) == n:
        return fitted.labels_
    return np.concatenate([fitted.predict(np.asarray(vectors[rows], dtype=np.float64)) for rows in _chunks(n)])


def density_clusters(coords: np.ndarray, *, min_size: int) -> np.ndarray:
    """scikit-learn's HDBSCAN on the map's 2-D positions: labels 0.. where the map is dense, -1 for points in no
    cluster. On the map, not in the full space, where 5,000 points of 384 dimensions took 20 s (20,000 map points:
    1.1 s; 100,000: 32 s, so the page queues it)."""
    x = np.asarray(coords, dtype=np.float64)
    if not 2 <= min_size <= len(x):
        raise ValueError(f"HDBSCAN's smallest cluster must be between 2 and {len(x)} points here, not {min_size}; "
                         "change it or colour by k-means clusters.")
    return HDBSCAN(min_cluster_size=min_size, copy=True).fit_predict(x)
