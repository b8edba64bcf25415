"""One query against a few texts, as each family of model sees it: a dense model (one vector per text, cosine), late
interaction (one vector per kept token, MaxSim) and a cross-encoder (the query read with each text). For each: the
scores, what must be stored for each text before any query comes, and what a query costs (network passes, seconds)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.analysis.late.alignment import BYTES_PER_VALUE, Alignment, alignment, scores, stored_bytes
from core.analysis.rerank import pair_scores
from core.analysis.search import unit_rows
from core.encoding.encoder import encode_with
from core.encoding.late.tokens import encode_multivector
from core.models.loading import LoadedModel
from core.models.memo import EmbeddingMemo
from core.models.reranker import LoadedReranker
from core.settings import Settings


@dataclass(frozen=True)
class Family:
    """`scores[i]` is text i's score for the query; `bytes_per_text` what is kept for each text ahead of the query
    (the mean over the texts); `passes` and `seconds` the query's own cost: encoding it and scoring every text (the
    texts' vectors encoded ahead), or reading every pair."""

    name: str
    model_id: str
    scores: np.ndarray
    bytes_per_text: float
    passes: int
    seconds: float

    @property
    def best(self) -> int:
        return int(np.argmax(self.scores))


def _fresh(model: LoadedModel) -> LoadedModel:
    """The model with an empty memo, so that the query is encoded, as a new query would be, and timed."""
    return replace(model, memo=EmbeddingMemo())


def dense(model: LoadedModel, query: str, texts: Sequence[str], settings: Settings) -> Family:
    """Cosine of the query's vector with each text's; a text keeps one float32 vector of the model's width."""
    stored = encode_with(model, texts, settings).vectors
    started = time.perf_counter()
    asked = encode_with(_fresh(model), [query], settings).vectors
    cosines = (unit_rows(asked) @ unit_rows(stored).T)[0]
    seconds = time.perf_counter() - started
    return Family("dense", model.model_id, cosines.astype(np.float64), float(stored.shape[1] * BYTES_PER_VALUE), 1,
                  seconds)


def late(model: LoadedModel, query: str, texts: Sequence[str]) -> tuple[Family, Alignment]:
    """The model's own similarity (MaxSim or MeanMaxSim) of the query against each text, and the alignment behind the
    best text's score; a text keeps a float32 vector per kept token."""
    documents = encode_multivector(model, texts, role="document")
    started = time.perf_counter()
    asked = encode_multivector(_fresh(model), [query], role="query")
    found = scores(model, asked, documents)[0]
    seconds = time.perf_counter() - started
    family = Family("late interaction", model.model_id, found.astype(np.float64),
                    stored_bytes(documents) / max(len(texts), 1), 1, seconds)
    return family, alignment(model, asked[0], documents[family.best])


def cross(reranker: LoadedReranker, query: str, texts: Sequence[str]) -> Family:
    """The reranker's score of the query read with each text: nothing is kept ahead, every text costs a pass."""
    started = time.perf_counter()
    found = pair_scores(reranker, [(query, text) for text in texts])
    return Family("cross-encoder", reranker.model_id, found, 0.0, len(texts), time.perf_counter() - started)
