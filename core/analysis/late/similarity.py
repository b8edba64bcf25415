"""The Similarity page's matrix for a late-interaction model: every text as a query (rows) against every text as a
document (columns), by the model's own MaxSim or MeanMaxSim. A query and a document are encoded differently, so the
matrix is not symmetric. Beside a dense configuration its values are on another scale (a sum over the query's
tokens, not a cosine), so two matrices are compared by rank. Fine-tune's heatmap divides each row by its query's
kept tokens (`per_token_matrix`), so that a cell is the mean of the row's tokens' best matches, in [-1, 1]."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import rankdata, spearmanr

from core.analysis.late.alignment import Alignment, scores
from core.analysis.similarity import order_by_distance
from core.encoding.encoder import Progress
from core.encoding.late.tokens import TokenVectors, encode_multivector
from core.models.loading import LoadedModel

VALUE_NAME = "MaxSim / query tokens"


def off_diagonal(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of every cell off the diagonal, row by row (both directions of each pair)."""
    rows, cols = np.nonzero(~np.eye(len(matrix), dtype=bool))
    return rows, cols


@dataclass(frozen=True)
class LateSimilarity:
    """The texts as queries and as documents, the (query, document) score matrix, and the cluster order if asked."""

    queries: list[TokenVectors]
    documents: list[TokenVectors]
    matrix: np.ndarray
    order: list[int] | None

    @property
    def mean(self) -> float | None:
        """The mean of every cell off the diagonal (both directions); None with fewer than two texts."""
        if len(self.matrix) < 2:
            return None
        return float(self.matrix[off_diagonal(self.matrix)].mean())

    @property
    def truncated(self) -> list[int]:
        """Texts cut as a query or as a document."""
        return [i for i, (query, document) in enumerate(zip(self.queries, self.documents))
                if query.truncated or document.truncated]


def late_order(matrix: np.ndarray) -> list[int]:
    """A cluster order from both directions of each pair: the distance of i and j is the highest score less the mean
    of their two scores (the diagonal 0)."""
    mean = (matrix + matrix.T) / 2
    distances = mean.max() - mean
    np.fill_diagonal(distances, 0.0)
    return order_by_distance(distances)


def late_text_similarity(model: LoadedModel, texts: Sequence[str], *, reorder: bool = False,
                         progress: Progress | None = None) -> LateSimilarity:
    """Every text scored as a query against every text as a document, by the model's own similarity."""
    total = 2 * len(texts)
    queries = encode_multivector(model, texts, role="query",
                                 progress=None if progress is None else lambda done, _: progress(done, total))
    documents = encode_multivector(model, texts, role="document", progress=None if progress is None else
                                   lambda done, _: progress(len(texts) + done, total))
    matrix = scores(model, queries, documents).astype(np.float64)
    return LateSimilarity(queries, documents, matrix, late_order(matrix) if reorder else None)


def rank_agreement(a: np.ndarray, b: np.ndarray) -> float | None:
    """Spearman's ρ between two matrices of the same texts over their cells off the diagonal: whether they order the
    pairs alike, whatever their scales; None with fewer than three texts."""
    if len(a) < 3:
        return None
    cells = off_diagonal(a)
    return float(spearmanr(a[cells], b[cells]).statistic)


def rank_moves(texts: Sequence[str], a: np.ndarray, b: np.ndarray, top: int = 15) -> pd.DataFrame:
    """The (query, document) cells whose rank among all cells off the diagonal moved most from `a` to `b`, as
    percentiles (100 = the highest score of its matrix), largest move first."""
    rows, cols = off_diagonal(a)
    if not len(rows):
        return pd.DataFrame(columns=["rank change (B − A)", "rank in A", "rank in B", "A", "B", "query", "document"])
    percent = [100 * (rankdata(m[rows, cols]) - 1) / max(len(rows) - 1, 1) for m in (a, b)]
    change = percent[1] - percent[0]
    picked = np.argsort(-np.abs(change), kind="stable")[:top]
    return pd.DataFrame({
        "rank change (B − A)": change[picked], "rank in A": percent[0][picked], "rank in B": percent[1][picked],
        "A": a[rows[picked], cols[picked]], "B": b[rows[picked], cols[picked]],
        "query": [texts[rows[k]] for k in picked], "document": [texts[cols[k]] for k in picked]})


def query_token_uses(query: TokenVectors) -> list[str]:
    """Each kept query token's use, its part of the score: "expansion", "prompt" or "typed" (the text's own tokens
    with the tokenizer's special ones)."""
    return ["expansion" if expanded else "prompt" if prompted else "typed"
            for expanded, prompted in zip(query.expansion, query.prompt)]


def alignment_table(alignment: Alignment) -> pd.DataFrame:
    """One row per query token: its part, its best document token, their similarity and its share of the score."""
    document = alignment.document.tokens
    best = [document[column] if document else "" for column in alignment.best]
    rows = np.arange(len(alignment.best))
    score = alignment.score
    return pd.DataFrame({
        "query token": list(alignment.query.tokens), "part": query_token_uses(alignment.query),
        "best document token": best, "position in the document": alignment.best.astype(int),
        "similarity": alignment.grid[rows, alignment.best] if document else np.zeros(len(rows)),
        "share": alignment.shares, "share of the score": alignment.shares / score if score else np.nan})


def per_token_matrix(model: LoadedModel, texts: Sequence[str]) -> np.ndarray:
    """(texts, texts): row i is text i encoded as a query, column j text j as a document, by the model's own
    similarity over row i's kept tokens (MeanMaxSim already is); not symmetric."""
    queries = encode_multivector(model, texts, role="query")
    matrix = scores(model, queries, encode_multivector(model, texts, role="document"))
    if model.late_pipeline.similarity == "maxsim":
        matrix = matrix / np.array([max(len(query.tokens), 1) for query in queries], np.float32)[:, None]
    return matrix
