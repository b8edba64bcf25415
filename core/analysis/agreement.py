"""How far two spaces of the same texts agree, measured in the full spaces (row i of each is text i): linear CKA,
neighbour overlap@k, RSA and the orthogonal Procrustes residual; and CKA between every layer of two models.

Sparse vectors are not compared here: a SparseEncoder's rows are vocabulary-wide (30,522 columns for BERT's), so
XᵀY would hold a billion cells, and a TruncatedSVD reduction (the map's) is a different space from the model's own.
The callers refuse a sparse model with a sentence that says so."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import spearmanr

from core.analysis.search import top_k, unit_rows
from core.analysis.vector_index import IndexParams, Progress
from core.data.sampling import sample_indices

EXACT_OVERLAP_UP_TO = 20_000  # texts whose neighbours are found exactly; above, through FAISS HNSW
RSA_TEXTS = 3_000  # RSA ranks every pair of texts (4.5 million at 3,000); above, a seeded sample of this many
ROWS_AT_ONCE = 65_536  # rows multiplied at once when accumulating XᵀY, so a memory-mapped million rows never load whole
SEARCH_AT_ONCE = 50_000  # texts whose neighbours are asked of an HNSW index at once


@dataclass(frozen=True)
class _Products:
    """The column-centred cross and self products XᵀY, XᵀX, YᵀY (float64) and the squared Frobenius norms of the
    centred X and Y, from one pass over the rows."""

    cross: np.ndarray
    gram_a: np.ndarray
    gram_b: np.ndarray
    norm_a: float
    norm_b: float


def _products(a: np.ndarray, b: np.ndarray) -> _Products:
    """Accumulated ROWS_AT_ONCE rows at a time; centring is applied at the end (Σ xyᵀ − n·μₓμᵧᵀ)."""
    n = len(a)
    cross = np.zeros((a.shape[1], b.shape[1]))
    gram_a, gram_b = np.zeros((a.shape[1],) * 2), np.zeros((b.shape[1],) * 2)
    sum_a, sum_b = np.zeros(a.shape[1]), np.zeros(b.shape[1])
    for start in range(0, n, ROWS_AT_ONCE):
        x = np.asarray(a[start:start + ROWS_AT_ONCE], dtype=np.float64)
        y = np.asarray(b[start:start + ROWS_AT_ONCE], dtype=np.float64)
        cross += x.T @ y
        gram_a += x.T @ x
        gram_b += y.T @ y
        sum_a += x.sum(axis=0)
        sum_b += y.sum(axis=0)
    mean_a, mean_b = sum_a / max(n, 1), sum_b / max(n, 1)
    gram_a -= n * np.outer(mean_a, mean_a)
    gram_b -= n * np.outer(mean_b, mean_b)
    return _Products(cross - n * np.outer(mean_a, mean_b), gram_a, gram_b, float(np.trace(gram_a)),
                     float(np.trace(gram_b)))


def _same_texts(a: np.ndarray, b: np.ndarray) -> None:
    if len(a) != len(b):
        raise ValueError(f"The two spaces hold different numbers of texts ({len(a):,} and {len(b):,}); compare the "
                         "same texts, one row each, in the same order.")


def _cka(products: _Products) -> float:
    scale = float(np.linalg.norm(products.gram_a) * np.linalg.norm(products.gram_b))
    return float(np.sum(products.cross ** 2) / scale) if scale > 0 else float("nan")


def linear_cka(a: np.ndarray, b: np.ndarray) -> float:
    """Linear CKA (Kornblith et al. 2019) of the column-centred X and Y: ‖XᵀY‖²_F / (‖XᵀX‖_F ‖YᵀY‖_F), from 0 to
    1; 1 when one space is a rotation and uniform scaling of the other. NaN when a side has no variance."""
    _same_texts(a, b)
    return _cka(_products(a, b))


def _procrustes(products: _Products) -> float:
    if products.norm_a <= 0 or products.norm_b <= 0:
        return float("nan")
    nuclear = float(np.linalg.svd(products.cross, compute_uv=False).sum())
    return max(0.0, 2.0 - 2.0 * nuclear / float(np.sqrt(products.norm_a * products.norm_b)))


def procrustes_residual(a: np.ndarray, b: np.ndarray) -> float:
    """The orthogonal Procrustes residual min over rotations R of ‖XR − Y‖²_F, where X and Y are the two spaces with
    their columns centred and each scaled to a Frobenius norm of 1, the narrower one padded with zero columns to the
    other's width (as scipy.linalg.orthogonal_procrustes needs). Normalised so, it runs from 0 (one space is a
    rotation, reflection and uniform scaling of the other) to 2; it equals 2 − 2·‖XᵀY‖_* (the nuclear norm), which is
    computed from XᵀY accumulated in row chunks, so padding is never built."""
    _same_texts(a, b)
    return _procrustes(_products(a, b))


def rsa_spearman(a: np.ndarray, b: np.ndarray, *, max_texts: int = RSA_TEXTS, seed: int = 0) -> float:
    """Representational similarity analysis: the Spearman correlation of the upper triangles (pairs i < j) of the two
    cosine similarity matrices; above `max_texts` texts, over a seeded sample of that many. NaN when a side's
    similarities are all equal."""
    _same_texts(a, b)
    rows = sample_indices(len(a), limit=max_texts, seed=seed)
    upper = np.triu_indices(len(rows), k=1)
    similarities = [(unit_rows(np.asarray(side[rows])) @ unit_rows(np.asarray(side[rows])).T)[upper]
                    for side in (a, b)]
    if any(np.ptp(values) == 0 for values in similarities):  # a constant side ranks nothing
        return float("nan")
    return float(spearmanr(*similarities).statistic)


@dataclass(frozen=True)
class Overlap:
    """For each text of `rows` (all `texts`, or a sample), its k nearest other texts by cosine in A and in B
    (rows, k), searched among all texts, and the share of them both spaces agree on (`per_text`, by row). `recall`
    is None for exact search, else the measured recall@10 of A's and B's HNSW indexes."""

    k: int
    rows: np.ndarray
    texts: int
    per_text: np.ndarray
    neighbours_a: np.ndarray
    neighbours_b: np.ndarray
    recall: tuple[float, float] | None = None

    @property
    def mean(self) -> float:
        return float(self.per_text.mean())

    @property
    def sampled(self) -> bool:
        return len(self.rows) < self.texts

    def everywhere(self) -> np.ndarray:
        """`per_text` for every text, NaN for those left out of a sample."""
        values = np.full(self.texts, np.nan)
        values[self.rows] = self.per_text
        return values

    def to_json(self) -> dict[str, Any]:
        """Plain lists and numbers (for a model's card); `from_json` reads them back."""
        return {"k": self.k, "rows": self.rows.tolist(), "texts": self.texts, "per_text": self.per_text.tolist(),
                "neighbours_a": self.neighbours_a.tolist(), "neighbours_b": self.neighbours_b.tolist(),
                "recall": None if self.recall is None else list(self.recall)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Overlap:
        recall = data["recall"]
        return cls(int(data["k"]), np.array(data["rows"], dtype=np.int64), int(data["texts"]),
                   np.array(data["per_text"], dtype=np.float64),
                   np.array(data["neighbours_a"], dtype=np.int64).reshape(-1, data["k"]),
                   np.array(data["neighbours_b"], dtype=np.int64).reshape(-1, data["k"]),
                   None if recall is None else (float(recall[0]), float(recall[1])))

    @property
    def caption(self) -> str:
        measured = (f"each of a seeded sample of {len(self.rows):,} texts" if self.sampled else "each text")
        searched = f"{measured}: its {self.k} nearest others by cosine in each space"
        if self.recall is None:
            return f"{searched}, found exactly among all {self.texts:,} texts"
        return (f"{searched}, found through FAISS HNSW indexes over all {self.texts:,} texts whose recall@10 "
                f"against exact search was measured at {self.recall[0]:.3f} (A) and {self.recall[1]:.3f} (B) on "
                "sampled texts")


def _without_self(hits: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Each row's k + 1 hits with the row itself taken out, or the last hit where the row is not among them (it can
    only be missing behind k + 1 exact duplicates, or where an HNSW graph did not return it)."""
    own = hits == rows[:, None]
    drop = np.where(own.any(axis=1), own.argmax(axis=1), hits.shape[1] - 1)
    keep = np.ones_like(hits, dtype=bool)
    keep[np.arange(len(rows)), drop] = False
    return hits[keep].reshape(len(rows), hits.shape[1] - 1)


def _exact_neighbours(vectors: np.ndarray, rows: np.ndarray, k: int) -> np.ndarray:
    units = unit_rows(vectors)
    return _without_self(top_k(units[rows], units, k + 1).indices, rows)


def _hnsw_neighbours(vectors: np.ndarray, rows: np.ndarray, k: int,
                     progress: Progress | None) -> tuple[np.ndarray, float]:
    """The k nearest other rows of each of `rows` through an HNSW index of all of them (stored on disk for the next
    run), and the index's measured recall@10."""
    from core.analysis.index_store import stored_index

    index = stored_index(vectors, IndexParams("hnsw"), progress)
    found = np.empty((len(rows), k), np.int64)
    for start in range(0, len(rows), SEARCH_AT_ONCE):
        chunk = rows[start:start + SEARCH_AT_ONCE]
        found[start:start + len(chunk)] = _without_self(index.search(np.asarray(vectors[chunk]), k + 1).indices,
                                                        chunk)
    return found, index.recall_at_10


def _shared(near_a: np.ndarray, near_b: np.ndarray) -> np.ndarray:
    """How many neighbours each row's two lists share (a list never repeats a row), SEARCH_AT_ONCE rows at a time."""
    return np.concatenate([(near_a[s:s + SEARCH_AT_ONCE, :, None] == near_b[s:s + SEARCH_AT_ONCE, None, :]).sum(
        axis=(1, 2)) for s in range(0, len(near_a), SEARCH_AT_ONCE)]).astype(np.float64)


def neighbour_overlap(a: np.ndarray, b: np.ndarray, *, k: int = 10, rows: np.ndarray | None = None,
                      exact_up_to: int = EXACT_OVERLAP_UP_TO, progress: Progress | None = None) -> Overlap:
    """Overlap@k: for each text of `rows` (None: every text), |kNN_A(i) ∩ kNN_B(i)| / k by cosine among all texts,
    a text never its own neighbour (ties rank the lower row first). Exact while the rows times the texts are at
    most `exact_up_to`² (every text of 20,000), else through FAISS HNSW with its recall stated."""
    _same_texts(a, b)
    if len(a) < k + 1:
        raise ValueError(f"Overlap@{k} needs at least {k + 1} texts (each text's {k} nearest others), and there are "
                         f"{len(a):,}; add texts or ask for fewer neighbours.")
    rows = np.arange(len(a)) if rows is None else np.asarray(rows, dtype=np.int64)
    if len(rows) * len(a) <= exact_up_to ** 2:
        near_a, near_b = _exact_neighbours(a, rows, k), _exact_neighbours(b, rows, k)
        recall = None
    else:
        (near_a, recall_a), (near_b, recall_b) = (_hnsw_neighbours(side, rows, k, progress) for side in (a, b))
        recall = (recall_a, recall_b)
    return Overlap(k, rows, len(a), _shared(near_a, near_b) / k, near_a, near_b, recall)


@dataclass(frozen=True)
class Agreement:
    """The four measures of one pair of spaces over `texts` texts; RSA over `rsa_texts` of them."""

    cka: float
    overlap: Overlap
    rsa_spearman: float
    rsa_texts: int
    procrustes: float
    texts: int
    widths: tuple[int, int]

    @property
    def few_texts(self) -> bool:
        """Fewer texts than the wider space has dimensions: CKA then runs high whatever the spaces."""
        return self.texts < max(self.widths)

    def record(self) -> dict[str, float | int | None]:
        """The measures under the command line's keys (`neighbour_overlap@10` for k = 10); NaN as None."""
        def number(value: float) -> float | None:
            return None if np.isnan(value) else value

        return {"cka": number(self.cka), f"neighbour_overlap@{self.overlap.k}": self.overlap.mean,
                "rsa_spearman": number(self.rsa_spearman), "procrustes": number(self.procrustes),
                "texts": self.texts}


def overlap_k(texts: int, most: int = 10) -> int:
    """The neighbours a set of `texts` texts is compared at: `most`, or half of each text's others in a smaller set
    (at least 1), so that the overlap is never the trivial "every other text"."""
    return max(1, min(most, (texts - 1) // 2))


def agreement(a: np.ndarray, b: np.ndarray, *, k: int = 10, overlap_texts: int | None = None, seed: int = 0,
              progress: Progress | None = None) -> Agreement:
    """All four measures of two spaces of the same texts (the overlap checks there are more than k texts first); the
    overlap of a seeded sample of `overlap_texts` texts (each searched among all of them) where there are more."""
    rows = None if overlap_texts is None else sample_indices(len(a), limit=overlap_texts, seed=seed)
    overlap = neighbour_overlap(a, b, k=k, rows=rows, progress=progress)
    products = _products(a, b)
    return Agreement(_cka(products), overlap, rsa_spearman(a, b, seed=seed), min(len(a), RSA_TEXTS),
                     _procrustes(products), len(a), (a.shape[1], b.shape[1]))


def _centred(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x - x.mean(axis=0)


def cka_matrix(a_layers: Sequence[np.ndarray], b_layers: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """Linear CKA of every layer of A (rows) against every layer of B (columns), each (texts, dims); without B, A
    against itself (symmetric, 1 on the diagonal). Each layer is centred once; with fewer texts than dimensions it
    is kept as its Gram matrix XXᵀ, since ‖XᵀY‖_F² = ⟨XXᵀ, YYᵀ⟩_F (so a vocabulary-wide layer costs texts², not
    dimensions²)."""
    own = b_layers is None
    layers = [*a_layers, *([] if b_layers is None else b_layers)]
    for y in layers:
        _same_texts(layers[0], y)
    gram = len(layers[0]) < max(x.shape[1] for x in layers)

    def kept(x: np.ndarray) -> np.ndarray:
        centred = _centred(x)
        return centred @ centred.T if gram else centred

    def cross(x: np.ndarray, y: np.ndarray) -> float:
        return float(np.sum(x * y)) if gram else float(np.sum((x.T @ y) ** 2))

    a_kept = [kept(x) for x in a_layers]
    b_kept = a_kept if b_layers is None else [kept(y) for y in b_layers]
    a_norms = [np.sqrt(cross(x, x)) if gram else float(np.linalg.norm(x.T @ x)) for x in a_kept]
    b_norms = a_norms if own else [np.sqrt(cross(y, y)) if gram else float(np.linalg.norm(y.T @ y)) for y in b_kept]
    matrix = np.full((len(a_kept), len(b_kept)), np.nan)
    for i, x in enumerate(a_kept):
        for j, y in enumerate(b_kept):
            if own and j < i:
                matrix[i, j] = matrix[j, i]
            elif a_norms[i] > 0 and b_norms[j] > 0:
                matrix[i, j] = cross(x, y) / (a_norms[i] * b_norms[j])
    return matrix
