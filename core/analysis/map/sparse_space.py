"""A sparse corpus made mappable without a dense vocabulary-wide copy: scikit-learn's TruncatedSVD on the CSR
matrix keeps the directions that carry most of the vectors' variance (as latent semantic analysis does for TF-IDF),
and the usual projections (PCA, t-SNE, UMAP) run on those."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import TruncatedSVD

SVD_DIMS = 128


@dataclass(frozen=True)
class SparseReduction:
    """The fitted SVD, the corpus's reduced vectors and the share of the variance they keep."""

    svd: TruncatedSVD
    vectors: np.ndarray
    kept: float

    def place(self, rows: sp.csr_matrix) -> np.ndarray:
        """Other rows (a query's) in the same reduced space."""
        return self.svd.transform(rows).astype(np.float32)


def reduce_sparse(rows: sp.csr_matrix, *, dims: int = SVD_DIMS, seed: int = 0) -> SparseReduction:
    """`rows` reduced to at most `dims` dimensions (fewer for a small corpus: at most rows - 1)."""
    if rows.shape[0] < 3:
        raise ValueError("A map of a sparse model's vectors needs at least 3 texts.")
    components = max(1, min(dims, rows.shape[0] - 1, rows.shape[1] - 1))
    svd = TruncatedSVD(n_components=components, random_state=seed)
    vectors = svd.fit_transform(rows).astype(np.float32)
    return SparseReduction(svd, vectors, float(svd.explained_variance_ratio_.sum()))
