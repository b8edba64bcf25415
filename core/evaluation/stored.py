"""A store's vectors read by a model: which models can read them (one dense vector a text), and a query embedded by
the model ranked over them by cosine, exactly."""

from __future__ import annotations

from typing import Any

import numpy as np

from core.analysis.search import top_k, unit_rows
from core.data.rows import ROW_ID
from core.data.stores import StoreError
from core.data.vectors import VectorCorpus
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings


def store_refusal(model: LoadedModel) -> str | None:
    """Why `model` cannot read stored vectors, in one sentence; None where it can (one dense vector a text)."""
    kind = kind_of(model)
    if kind.applies.compare:
        return None
    return (f"{model.model_id} is {kind.article}: stored vectors are one dense vector a text, which it does not give; "
            "choose the dense model that wrote them.")


def stored_query(model: LoadedModel, query: str, width: int, settings: Settings) -> np.ndarray:
    """`query` embedded by `model` under `settings` (its query prompt and role), as one row to rank stored vectors of
    `width` dimensions by; ValueError in one sentence where the model cannot read them or gives another width."""
    refused = store_refusal(model)
    if refused is not None:
        raise ValueError(refused)
    vector = np.asarray(kind_of(model).query_vector(model, query, settings), dtype=np.float32)
    if vector.shape[1] != width:
        raise StoreError(f"{model.model_id} gives {vector.shape[1]:,} dimensions and the stored vectors have "
                         f"{width:,}: embed the query with the model that wrote them (or keep as many dimensions).")
    return vector


def stored_hits(model: LoadedModel, query: str, corpus: VectorCorpus, settings: Settings,
                k: int) -> list[dict[str, Any]]:
    """The k stored rows nearest `query` (embedded by `model` under `settings`, its query prompt and role) by cosine,
    best first: rank, row id, text, score and the rows' metadata; ValueError in one sentence where the model cannot
    read the vectors or gives another width."""
    hits = top_k(unit_rows(stored_query(model, query, corpus.vectors.shape[1], settings)), unit_rows(corpus.vectors), k)
    meta = corpus.metadata.drop(columns=[ROW_ID], errors="ignore")
    row_ids = corpus.metadata[ROW_ID] if ROW_ID in corpus.metadata.columns else None
    return [{"rank": rank + 1, ROW_ID: None if row_ids is None else str(row_ids.iloc[i]), "text": corpus.texts[i],
             "score": float(score), **meta.iloc[i].to_dict()}
            for rank, (i, score) in enumerate(zip(hits.indices[0], hits.scores[0]))]
