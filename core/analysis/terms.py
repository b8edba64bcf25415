"""A sparse model's vectors read as terms: a text's active vocabulary entries and their weights (those the text
holds, those its prompt holds, and the expansion: terms the model adds), how sparse the vectors are (as
SparseEncoder.sparsity measures it), the model's similarity of many texts, and the exact split of a pair's score into
the terms both hold (for the dot product q_t × d_t, which sums to the score; for the cosine, over both lengths)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp
import torch
from sklearn.preprocessing import normalize

from core.analysis.similarity import TextSimilarity, order_by_distance
from core.encoding.encoder import Progress
from core.encoding.prompts import resolve_prompt
from core.encoding.sparse import encode_sparse
from core.models.loading import LoadedModel
from core.settings import Role, Settings

Origin = Literal["in the text", "in the prompt", "added by the model"]
ORIGINS: tuple[Origin, ...] = ("in the text", "in the prompt", "added by the model")


def term_names(model: LoadedModel, columns: np.ndarray) -> list[str]:
    """The vocabulary entries of `columns` (a SPLADE model's dimensions are its tokenizer's tokens), else their
    numbers."""
    if model.sparse_pipeline.terms:
        return list(model.tokenizer.convert_ids_to_tokens([int(c) for c in columns]))
    return [f"dimension {int(c)}" for c in columns]


def _token_ids(model: LoadedModel, text: str) -> set[int]:
    return set(model.tokenizer(text, add_special_tokens=False)["input_ids"]) if text else set()


@dataclass(frozen=True)
class Sparsity:
    """Active (non-zero) dimensions and the share of zeros, averaged over rows, as SparseEncoder.sparsity gives
    them."""

    active_dims: float
    sparsity_ratio: float


def sparsity(rows: sp.csr_matrix) -> Sparsity:
    from sentence_transformers import SparseEncoder

    coo = rows.tocoo()
    tensor = torch.sparse_coo_tensor(torch.from_numpy(np.vstack([coo.row, coo.col]).astype(np.int64)),
                                     torch.from_numpy(coo.data), size=rows.shape, check_invariants=True)
    found = SparseEncoder.sparsity(tensor)
    return Sparsity(float(found["active_dims"]), float(found["sparsity_ratio"]))


@dataclass(frozen=True)
class TextTerms:
    """One text's vector as terms, heaviest first: `table` has term, weight, origin (where the term comes from)."""

    text: str
    role: Role
    prompt: str
    table: pd.DataFrame
    sparsity: Sparsity
    truncated: bool

    @property
    def expansion(self) -> pd.DataFrame:
        return self.table[self.table["origin"] == "added by the model"]


def text_terms(model: LoadedModel, text: str, settings: Settings, role: Role = "document") -> TextTerms:
    """The terms of `text` as the model encodes a text of `role` (its prompt and route)."""
    prompt = resolve_prompt(model.pipeline, role)
    found = encode_sparse(model, [text], role=role, prompt=prompt, max_length=settings.max_length)
    row = found.matrix[0]
    order = np.argsort(-row.data, kind="stable")
    columns, weights = row.indices[order], row.data[order]
    own, prompted = _token_ids(model, text), _token_ids(model, prompt)
    origins: list[Origin] = [ORIGINS[0] if int(c) in own else ORIGINS[1] if int(c) in prompted else ORIGINS[2]
                             for c in columns]
    table = pd.DataFrame({"term": term_names(model, columns), "weight": weights.astype(np.float64),
                          "origin": origins if model.sparse_pipeline.terms else "dimension", "column": columns})
    return TextTerms(text, role, prompt, table, sparsity(found.matrix), bool(found.truncated))


def sides_differ(model: LoadedModel) -> bool:
    """Whether a query and a document of the same words get different vectors: another route, or other prompts."""
    return model.sparse_pipeline.query_side is not None or \
        resolve_prompt(model.pipeline, "query") != resolve_prompt(model.pipeline, "document")


def scored_rows(model: LoadedModel, rows: sp.csr_matrix) -> sp.csr_matrix:
    """A sparse model's rows as its similarity scores them by a dot product: as they are, or unit length."""
    return normalize(rows).astype(np.float32) if model.sparse_pipeline.similarity == "cosine" else rows


def _norms(rows: sp.csr_matrix) -> np.ndarray:
    return np.sqrt(np.asarray(rows.multiply(rows).sum(axis=1), dtype=np.float64).ravel())


def pair_scores(model: LoadedModel, a: sp.csr_matrix, b: sp.csr_matrix) -> np.ndarray:
    """The model's own similarity of every row of `a` with every row of `b` (dot product or cosine), float64."""
    scores = (a @ b.T).toarray().astype(np.float64)
    if model.sparse_pipeline.similarity == "cosine":
        scores /= np.maximum(np.outer(_norms(a), _norms(b)), 1e-12)
    return scores


def paired_scores(model: LoadedModel, a: sp.csr_matrix, b: sp.csr_matrix) -> np.ndarray:
    """The model's own similarity of row i of `a` with row i of `b`, float64."""
    scores = np.asarray(a.multiply(b).sum(axis=1), dtype=np.float64).ravel()
    if model.sparse_pipeline.similarity == "cosine":
        scores /= np.maximum(_norms(a) * _norms(b), 1e-12)
    return scores


def sparse_similarity(model: LoadedModel, texts: Sequence[str], settings: Settings, *, reorder: bool = False,
                      progress: Progress | None = None) -> TextSimilarity:
    """The matrix the Similarity page draws for a sparse model, from one encoding of the texts; clustered, when
    asked, by cosine distance computed from the sparse rows."""
    found = encode_sparse(model, texts, role=settings.role, prompt=settings.prompt, max_length=settings.max_length,
                          progress=progress)
    matrix = pair_scores(model, found.matrix, found.matrix)
    order = None
    if reorder:
        gram = (found.matrix @ found.matrix.T).toarray().astype(np.float64)
        norms = np.sqrt(np.maximum(np.diag(gram), 1e-12))
        order = order_by_distance(1 - gram / np.outer(norms, norms))
    return TextSimilarity(found, matrix, order)


@dataclass(frozen=True)
class TermSplit:
    """A pair's score split over the terms both texts hold: `table` has term, weight in A, weight in B and
    contribution (their product, over both lengths for the cosine), strongest first; the contributions sum to
    `score`."""

    table: pd.DataFrame
    score: float
    similarity: str
    only_a: int
    only_b: int

    @property
    def total(self) -> float:
        return float(self.table["contribution"].sum())


def term_split(model: LoadedModel, a: sp.csr_matrix, b: sp.csr_matrix) -> TermSplit:
    """The split of the score of row vector `a` with row vector `b`."""
    a_dense = dict(zip(a.indices.tolist(), a.data.astype(np.float64)))
    b_dense = dict(zip(b.indices.tolist(), b.data.astype(np.float64)))
    shared = sorted(set(a_dense) & set(b_dense))
    products = np.array([a_dense[c] * b_dense[c] for c in shared], dtype=np.float64)
    scale = 1.0
    if model.sparse_pipeline.similarity == "cosine":
        scale = float(np.linalg.norm(a.data.astype(np.float64)) * np.linalg.norm(b.data.astype(np.float64))) or 1.0
    table = pd.DataFrame({"term": term_names(model, np.array(shared, dtype=np.int64)),
                          "weight in A": [a_dense[c] for c in shared], "weight in B": [b_dense[c] for c in shared],
                          "contribution": products / scale})
    table = table.sort_values("contribution", ascending=False, kind="stable").reset_index(drop=True)
    return TermSplit(table, float(pair_scores(model, a, b)[0, 0]), model.sparse_pipeline.similarity,
                     len(a_dense) - len(shared), len(b_dense) - len(shared))


def explain_terms(model: LoadedModel, a: str, b: str, sides: tuple[Settings, Settings]) -> TermSplit:
    """Why two texts score what they score: each encoded as its side says (prompt, role, token limit), and the
    score split into the terms both hold."""
    rows = [encode_sparse(model, [text], role=side.role, prompt=side.prompt, max_length=side.max_length).matrix
            for text, side in zip((a, b), sides)]
    return term_split(model, rows[0], rows[1])
