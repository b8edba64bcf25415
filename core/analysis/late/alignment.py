"""Late interaction's score and why: each query token's best match among a document's tokens (MaxSim), the sum of
those maxima being the score (divided by the query's token count for MeanMaxSim), so every query token's share is
read off exactly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.analysis.late.maxsim import matrix_scores
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors
from core.models.loading import LoadedModel

BYTES_PER_VALUE = 4  # float32


def scores(model: LoadedModel, queries: Sequence[TokenVectors], documents: Sequence[TokenVectors]) -> np.ndarray:
    """The (queries, documents) matrix of the model's own similarity (`MultiVectorEncoder.similarity`: MaxSim or
    MeanMaxSim). It is not symmetric: a row is read as a query, a column as a document."""
    width = model.late_pipeline.width
    return matrix_scores(TokenMatrix.of(queries, width), TokenMatrix.of(documents, width),
                         mean=model.late_pipeline.similarity == "meanmaxsim")


@dataclass(frozen=True)
class Alignment:
    """How a document scores for a query: `grid` holds every query token × document token similarity, `best` each
    query token's best document token, `shares` what each query token adds to the score (its best similarity,
    divided by the query's token count for MeanMaxSim); the shares sum to `score`."""

    query: TokenVectors
    document: TokenVectors
    grid: np.ndarray  # (query tokens, document tokens)
    best: np.ndarray  # (query tokens,) column of each row's maximum
    shares: np.ndarray  # (query tokens,)
    similarity: str

    @property
    def score(self) -> float:
        return float(self.shares.sum())

    @property
    def expansion_share(self) -> float:
        """The part of the score the query expansion's tokens add."""
        return float(self.shares[self.query.expansion].sum())

    @property
    def prompt_share(self) -> float:
        return float(self.shares[self.query.prompt].sum())

    @property
    def typed_share(self) -> float:
        """The part of the score the query's own tokens (with its special tokens) add."""
        return float(self.shares[self.query.typed].sum())


def align(query: TokenVectors, document: TokenVectors, similarity: str = "maxsim") -> Alignment:
    """The token × token alignment behind one MaxSim (or MeanMaxSim) score, in float64 so the shares add up to the
    score the model computes in float32 to its rounding."""
    grid = query.vectors.astype(np.float64) @ document.vectors.astype(np.float64).T
    if not document.vectors.shape[0]:
        return Alignment(query, document, grid, np.zeros(len(query.tokens), int), np.zeros(len(query.tokens)),
                         similarity)
    best = grid.argmax(axis=1)
    shares = grid[np.arange(len(best)), best]
    if similarity == "meanmaxsim":
        shares = shares / max(len(best), 1)
    return Alignment(query, document, grid, best, shares, similarity)


def alignment(model: LoadedModel, query: TokenVectors, document: TokenVectors) -> Alignment:
    return align(query, document, model.late_pipeline.similarity)


def stored_bytes(texts: Sequence[TokenVectors]) -> int:
    """What keeping these texts' token vectors as float32 takes."""
    return sum(text.vectors.size for text in texts) * BYTES_PER_VALUE


def vectors_sentence(model: LoadedModel) -> str:
    """What a late-interaction model makes of a text, in one sentence: a vector per kept token, its width, the
    queries' length and expansion, what the skiplist drops, and how two texts are scored."""
    pipeline = model.late_pipeline
    expansion = (f"expanded with {pipeline.expansion.get('token') or model.tokenizer.mask_token or 'padding'} tokens "
                 f"to {pipeline.expansion_tokens}" if pipeline.expansion else "not expanded")
    dropped = (f"; the skiplist drops {len(pipeline.skiplist)} tokens (such as "
               f"{' '.join(pipeline.skiplist[:4])}) from {' and '.join(pipeline.skiplist_tasks)}s"
               if pipeline.skiplist else "")
    pooled = f"; {pipeline.token_pooling}" if pipeline.token_pooling else ""
    score = ("MaxSim: the sum over the query's tokens of each one's best match among the document's tokens"
             if pipeline.similarity == "maxsim" else
             "MeanMaxSim: the mean over the query's tokens of each one's best match among the document's tokens")
    return (f"Late interaction: each text becomes one {pipeline.width}-dimensional vector per kept token, not one "
            f"vector; queries are cut at {pipeline.query_length} tokens and {expansion}, documents cut at "
            f"{pipeline.document_length}{dropped}{pooled}. A query scores a document by {score}.")
