"""Late interaction's score and why: each query token's best match among a document's tokens (MaxSim), the sum of
those maxima being the score (divided by the query's token count for MeanMaxSim), so every query token's share is
read off exactly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from core.encoding.multivector import TokenVectors
from core.models.loading import LoadedModel

BYTES_PER_VALUE = 4  # float32


def scores(model: LoadedModel, queries: Sequence[TokenVectors], documents: Sequence[TokenVectors]) -> np.ndarray:
    """The (queries, documents) matrix of the model's own similarity (`MultiVectorEncoder.similarity`: MaxSim or
    MeanMaxSim). It is not symmetric: a row is read as a query, a column as a document."""
    if not queries or not documents:
        return np.zeros((len(queries), len(documents)), np.float32)
    as_tensors = [torch.from_numpy(np.array(text.vectors)) for text in queries]
    return model.multivector.similarity(as_tensors, [torch.from_numpy(np.array(text.vectors)) for text in documents]
                                        ).float().cpu().numpy()


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


SCORE_CHUNK = 2048  # documents scored per call of the model's similarity, so memory stays bounded


def top_k(model: LoadedModel, queries: Sequence[TokenVectors], documents: Sequence[TokenVectors],
          k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each query's `k` best documents by the model's own similarity, exact (every document scored): their indices
    and scores, (queries, k), best first."""
    k = min(k, len(documents))
    best_scores = np.full((len(queries), 0), -np.inf, np.float32)
    best_ids = np.zeros((len(queries), 0), np.int64)
    for start in range(0, len(documents), SCORE_CHUNK):
        chunk = scores(model, queries, documents[start:start + SCORE_CHUNK])
        merged_scores = np.concatenate([best_scores, chunk], axis=1)
        merged_ids = np.concatenate([best_ids, np.broadcast_to(np.arange(start, start + chunk.shape[1]),
                                                               chunk.shape)], axis=1)
        keep = np.argsort(-merged_scores, axis=1, kind="stable")[:, :k]
        best_scores, best_ids = np.take_along_axis(merged_scores, keep, 1), np.take_along_axis(merged_ids, keep, 1)
    return best_ids, best_scores
