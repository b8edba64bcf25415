"""Rerankers (sentence-transformers' CrossEncoder): no vectors; a query and a text read together give one score."""

from __future__ import annotations

import pyarrow as pa

from core.kinds.base import Applies, Kind
from core.models.loading import LoadedModel

RERANKER_SCORE = "reranker"  # what a reranker's scores are called in metric keys


class Reranker(Kind):
    name = "reranker"
    article = "a reranker"
    why_refused = ", which reads a query and a text together and gives one score"
    sentence = ("Reranker (cross-encoder): no vectors; it reads a query and a text together and gives one score, "
                "used to reorder a first stage's top hits.")
    stored_as = "nothing: every pair is read again"
    schema = pa.schema([])
    suffixes = ()
    files = "nothing"
    fixed_scale = False  # a logit, unless the model's activation squashes it
    applies = Applies()


    def score_name(self, model: LoadedModel) -> str:
        return RERANKER_SCORE

    def symmetric(self, model: LoadedModel) -> bool:
        return False
