"""2-D maps of embeddings (PCA, t-SNE, UMAP), where a query lands on them, and how far to trust them.

Every function is pure over arrays. A method that cannot run on the points it is given raises a
ValueError whose message is one sentence with the way forward, so a page can fall back to PCA.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from openTSNE import TSNE as OpenTSNE
from sklearn.cluster import HDBSCAN, KMeans
from sklearn.manifold import trustworthiness
from sklearn.neighbors import NearestNeighbors

from core.analysis.map.methods import METHODS, Method
from core.analysis.map.umap_compiled import umap_module
from core.analysis.search import top_k, unit_rows
from core.data.sampling import sample_indices


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


DEFAULTS = ProjectionParams()  # every function's defaults below, the command line's and the map page's
MAX_POINTS = 5_000_000  # every point drawn by the map canvas: its times at 100,000 and 1,000,000 are in `make bench`
FIT_POINTS = 50_000  # above it, t-SNE, UMAP and k-means are fitted on a seeded sample and place the rest
CHUNK = 100_000  # rows read, checked and placed at a time, so millions of float32 rows are never copied whole
TRUST_NEIGHBOURS = 10
TRUST_POINTS = 4_000  # above it, trust is measured on a seeded sample (scikit-learn's trustworthiness needs n x n)
NOISE = "noise"  # the category of the points HDBSCAN puts in no cluster (its label -1): grey, and never labelled


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


@dataclass(frozen=True)
class Fit:
    """A projection of n points fitted and ready to place them: t-SNE or UMAP fitted on `rows` (every row, or above
    FIT_POINTS a seeded sample of that many), whose positions `coords` it keeps, with the fitted model placing every
    other row; or exact PCA, fitted on every row, placing every row with its axes. `to_place` lists the rows to place
    a chunk at a time, here or on a cluster (core.scale.ray_project)."""

    method: Method
    params: dict[str, float | int]
    n: int
    rows: np.ndarray
    coords: np.ndarray
    model: Any = None  # openTSNE's TSNEEmbedding or umap-learn's UMAP
    mean: np.ndarray | None = None  # PCA
    components: np.ndarray | None = None
    explained_variance: np.ndarray | None = None
    chunk: int = CHUNK  # rows placed at a time: kept with the fit, so every process splits the rows alike

    def place(self, vectors: np.ndarray) -> np.ndarray:
        x = np.asarray(vectors, dtype=np.float64)
        if self.method == "PCA":
            return (x - np.asarray(self.mean)) @ np.asarray(self.components).T
        if self.method == "UMAP":
            umap_module()  # a fit unpickled in another process (a Ray actor) imported umap-learn without its cache
        return np.asarray(self.model.transform(x), dtype=np.float64)

    def to_place(self) -> list[np.ndarray]:
        rest = np.setdiff1d(np.arange(self.n), self.rows)
        return [rest[start:start + self.chunk] for start in range(0, len(rest), self.chunk)]

    def projection(self, placed: Iterable[tuple[np.ndarray, np.ndarray]]) -> Projection:
        """The projection of all n points, given each chunk of `to_place` with its coordinates."""
        coords = np.full((self.n, 2), np.nan)
        coords[self.rows] = self.coords
        for rows, xy in placed:
            coords[rows] = xy
        if np.isnan(coords).any():
            raise ValueError("Some points were not placed on the map; run the projection again.")
        sampled = self.method != "PCA" and len(self.rows) < self.n
        return Projection(coords=coords, method=self.method,
                          params={**self.params, "fitted_on": len(self.rows)} if sampled else self.params,
                          explained_variance=self.explained_variance, mean=self.mean, components=self.components)


def how_placed(projection: Projection) -> str:
    """One sentence on how the map's points were placed, for the page to say beside it."""
    fitted = projection.params.get("fitted_on")
    n = len(projection.coords)
    if fitted:
        return (f"{projection.method} was fitted on a seeded sample of {fitted:,} of the {n:,} points; the fitted "
                "model placed every other point.")
    return f"{projection.method} placed all {n:,} points" + (" (exact)." if projection.method == "PCA" else ".")


def fit_pca(vectors: np.ndarray) -> Fit:
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
    total = float(np.trace(covariance))
    explained = np.clip(variances[order] / total, 0, None) if total > 0 else np.zeros(2)
    return Fit("PCA", {}, n, np.arange(0), np.empty((0, 2)), mean=mean, components=components,
               explained_variance=explained, chunk=CHUNK)


def _tsne(x: np.ndarray, perplexity: float, seed: int) -> Any:  # openTSNE's TSNEEmbedding: it places new points
    limit = (len(x) - 1) / 3  # each point's neighbourhood is 3 x perplexity of the other points
    if perplexity > limit:
        raise ValueError(f"t-SNE's perplexity ({perplexity:g}) can be at most a third of the other points "
                         f"({limit:.3g} for {len(x)} points); lower it or use PCA.")
    return OpenTSNE(perplexity=perplexity, metric="cosine", initialization="pca", random_state=seed,
                    n_jobs=-1).fit(x)  # threads on every core, never processes (its test counts forks)


def fit_tsne(vectors: np.ndarray, *, perplexity: float = DEFAULTS.perplexity, seed: int = DEFAULTS.seed) -> Fit:
    """openTSNE's FFT-accelerated t-SNE on cosine distances, initialised with PCA (the same map for one seed). At
    equal trustworthiness it took 0.68x scikit-learn's time on 15,457 points and the same on 5,000 (`make bench`).
    Above FIT_POINTS points, fitted on a seeded sample; openTSNE's `transform` places the others."""
    check_rows(vectors, minimum=4, method="t-SNE")
    rows = sample_indices(len(vectors), limit=FIT_POINTS, seed=seed)
    model = _tsne(np.asarray(vectors[rows], dtype=np.float64), perplexity, seed)
    return Fit("t-SNE", {"perplexity": perplexity, "seed": seed}, len(vectors), rows, np.asarray(model), model,
               chunk=CHUNK)


def fit_umap(vectors: np.ndarray, *, neighbours: int = DEFAULTS.neighbours, min_dist: float = DEFAULTS.min_dist,
             seed: int = DEFAULTS.seed) -> Fit:
    """umap-learn on cosine distances (imported here: its first use in a process compiles with numba, or loads
    what an earlier one cached); above FIT_POINTS points, fitted on a seeded sample, and umap-learn's `transform`
    places the others."""
    check_rows(vectors, minimum=4, method="UMAP")
    rows = sample_indices(len(vectors), limit=FIT_POINTS, seed=seed)
    _check_neighbours(neighbours, len(rows))
    umap = umap_module()

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*n_jobs value.*")  # seeding makes it single-threaded
        model = umap.UMAP(n_components=2, n_neighbors=neighbours, min_dist=min_dist, metric="cosine",
                          random_state=seed).fit(np.asarray(vectors[rows], dtype=np.float64))
    return Fit("UMAP", {"neighbours": neighbours, "min_dist": min_dist, "seed": seed}, len(vectors), rows,
               np.asarray(model.embedding_, dtype=np.float64), model, chunk=CHUNK)


def fit_projection(vectors: np.ndarray, *, method: Method, perplexity: float = DEFAULTS.perplexity,
                   neighbours: int = DEFAULTS.neighbours, min_dist: float = DEFAULTS.min_dist,
                   seed: int = DEFAULTS.seed) -> Fit:
    if method == "PCA":
        return fit_pca(vectors)
    if method == "t-SNE":
        return fit_tsne(vectors, perplexity=perplexity, seed=seed)
    if method == "UMAP":
        return fit_umap(vectors, neighbours=neighbours, min_dist=min_dist, seed=seed)
    raise ValueError(f"Unknown method {method!r}; choose one of {', '.join(METHODS)}.")


def placed_here(fit: Fit, vectors: np.ndarray) -> Projection:
    """Every row of `vectors` on `fit`'s map, placed in this process a chunk at a time."""
    return fit.projection((rows, fit.place(vectors[rows])) for rows in fit.to_place())


def pca_projection(vectors: np.ndarray) -> Projection:
    return placed_here(fit_pca(vectors), vectors)


def tsne_projection(vectors: np.ndarray, *, perplexity: float = DEFAULTS.perplexity,
                    seed: int = DEFAULTS.seed) -> Projection:
    return placed_here(fit_tsne(vectors, perplexity=perplexity, seed=seed), vectors)


def umap_projection(vectors: np.ndarray, *, neighbours: int = DEFAULTS.neighbours, min_dist: float = DEFAULTS.min_dist,
                    seed: int = DEFAULTS.seed) -> Projection:
    return placed_here(fit_umap(vectors, neighbours=neighbours, min_dist=min_dist, seed=seed), vectors)


def _check_neighbours(neighbours: int, n: int) -> None:
    if neighbours >= n:
        raise ValueError(f"UMAP's neighbours ({neighbours}) must be fewer than the number of points ({n}); "
                         f"lower it below {n} or use PCA.")
    if neighbours < 2:
        raise ValueError("UMAP needs at least 2 neighbours; raise the neighbours setting.")


def aligned_umap(a: np.ndarray, b: np.ndarray, *, neighbours: int = DEFAULTS.neighbours,
                 min_dist: float = DEFAULTS.min_dist, seed: int = DEFAULTS.seed) -> tuple[Projection, Projection]:
    """umap-learn's AlignedUMAP of the same texts in two spaces: each laid out as UMAP lays it out, every text kept
    near its place in the other map, so that a text which moves between them moved in the embeddings."""
    xa = check_vectors(a, minimum=4, method="UMAP")
    xb = check_vectors(b, minimum=4, method="UMAP")
    if len(xa) != len(xb):
        raise ValueError(f"Aligned maps need the same texts in both spaces, not {len(xa)} and {len(xb)} points.")
    _check_neighbours(neighbours, len(xa))
    umap = umap_module()

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*n_jobs value.*")
        fitted = umap.AlignedUMAP(n_neighbors=neighbours, min_dist=min_dist, metric="cosine",
                                  random_state=seed).fit([xa, xb], relations=[{i: i for i in range(len(xa))}])
    params = {"neighbours": neighbours, "min_dist": min_dist, "seed": seed}
    first, second = (Projection(coords=np.asarray(c, dtype=np.float64), method="UMAP", params=params)
                     for c in fitted.embeddings_)
    return first, second


def project(vectors: np.ndarray, *, method: Method, perplexity: float = DEFAULTS.perplexity,
            neighbours: int = DEFAULTS.neighbours, min_dist: float = DEFAULTS.min_dist,
            seed: int = DEFAULTS.seed) -> Projection:
    return placed_here(fit_projection(vectors, method=method, perplexity=perplexity, neighbours=neighbours,
                                      min_dist=min_dist, seed=seed), vectors)


def nearest(vectors: np.ndarray, queries: np.ndarray, *, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices and cosine similarities of each query's k nearest points, best first."""
    hits = top_k(unit_rows(queries), unit_rows(vectors), k)
    return hits.indices, hits.scores


def place_queries(projection: Projection, vectors: np.ndarray, queries: np.ndarray, *, k: int = 10) -> np.ndarray:
    """2-D positions for new points: PCA transforms them with its axes; a t-SNE or UMAP `Projection` holds positions,
    not the fitted model that could place them (the disk store keeps positions only), so each query goes to the mean
    2-D position of its k nearest points (cosine, full space)."""
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
