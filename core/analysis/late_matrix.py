"""A late-interaction model's matrix of a few texts, for a heatmap beside a dense model's cosines: each text as a query
(row) against each text as a document (column) by the model's own similarity, per query token (MaxSim divided by the
query's kept tokens, which MeanMaxSim already is), so that a cell is the mean of the row's tokens' best matches in
[-1, 1] and a row orders its columns as the model's score does."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.analysis.late_interaction import scores
from core.encoding.multivector import encode_multivector
from core.models.loading import LoadedModel

VALUE_NAME = "MaxSim / query tokens"


def per_token_matrix(model: LoadedModel, texts: Sequence[str]) -> np.ndarray:
    """(texts, texts): row i is text i encoded as a query, column j text j as a document; not symmetric."""
    queries = encode_multivector(model, texts, role="query")
    matrix = scores(model, queries, encode_multivector(model, texts, role="document"))
    if model.late_pipeline.similarity == "maxsim":
        matrix = matrix / np.array([max(len(query.tokens), 1) for query in queries], np.float32)[:, None]
    return matrix
