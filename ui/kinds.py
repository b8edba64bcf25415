"""The one place in ui/ that maps a model's kind to what the pages draw for it beyond what every kind shares: Home's
and Model's extra sections, Evaluation's model checks, Layers' extra tab, Similarity's own matrix, Retrieval's token
matches and the map's token view. A page asks `views_of(model)`; it does not compare kinds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from core.analysis.late.alignment import vectors_sentence
from core.analysis.late.storage import storage_sentence
from core.analysis.ranking import SCORE_NAMES
from core.analysis.similarity import METRICS, Metric
from core.data.stsb import DataUnavailable
from core.kinds import kind_of
from core.models.catalog import DEFAULT_MODEL_ID
from core.models.loading import LoadedModel
from core.settings import Settings
from ui.components.explain import Explain, alignment_panel, dense_panel, terms_panel
from ui.pages.evaluation_checks import checks_section
from ui.pages.evaluation_late_checks import late_checks_section
from ui.pages.home_late import late_vectors
from ui.pages.layers import terms_view as layer_terms_view
from ui.pages.map.late import corpus_caption, late_points, token_map_view
from ui.pages.model_late import late_tokens_view
from ui.pages.model_terms import terms_view
from ui.pages.retrieval_late import late_corpus_caption, late_why, model_matches
from ui.pages.similarity_late import late_similarity, score_name
from ui.work.cache import builtin_storage_of


def _nothing(*_: object) -> None:
    return None


def _sparse_note(model: LoadedModel) -> None:
    """A sparse model's vector is its modules' own: only the token limit is the user's to set."""
    parts = model.sparse_pipeline
    st.caption(f"Sparse model: each text becomes {model.dimensions:,} weights, one per vocabulary entry, almost all "
               f"zero ({model.default_pooling}); texts are compared by {SCORE_NAMES[parts.similarity]}. Pooling, "
               "layer and dimensions do not apply"
               + (f"; queries take another route ({parts.query_side})." if parts.query_side else "."))


def _late_note(model: LoadedModel) -> None:
    """A late-interaction model's vectors are its modules' own, lengths included: nothing here is the user's to set."""
    try:
        storage = " " + storage_sentence(builtin_storage_of(model.model_id, model.fingerprint, _model=model),
                                         "The built-in corpus")
    except DataUnavailable:
        storage = ""
    st.caption(vectors_sentence(model) + storage + " Pooling, layer, dimensions and max length do not apply.")


def _not_shown(settings: Settings, model: LoadedModel) -> None:
    st.info(kind_of(model).not_shown["quantization"].format(model=model.model_id))


def _sparse_measure(model: LoadedModel) -> tuple[Metric, str]:
    metric = model.sparse_pipeline.similarity
    return metric, f"Measure: {METRICS[metric]}, the sparse model's own similarity."


def _late_measure(model: LoadedModel) -> tuple[Metric, str]:
    return "dot", (f"Measure: {score_name(model)}, the late-interaction model's own similarity. Each text is read as a "
                   "query (rows) and as a document (columns), with the model's own prompts.")


def _token_map(model: LoadedModel) -> bool:
    """Whether the map shows one point a token (the user's choice), drawn here."""
    if late_points() != "tokens":
        return False
    token_map_view(model)
    return True


@dataclass(frozen=True)
class KindViews:
    home: Callable[[LoadedModel], None] = _nothing  # after the model's facts
    embedding_note: Callable[[LoadedModel], None] = _nothing  # the sidebar's sentence on what shapes its vectors
    model_first: Callable[[LoadedModel, Settings], None] = _nothing  # before the architecture
    model_last: Callable[[LoadedModel], None] = _nothing  # after it
    evaluation_checks: Callable[[Settings, LoadedModel], None] = checks_section
    layer_tabs: dict[str, Callable[[LoadedModel, list[str], int | None, str], None]] = field(default_factory=dict)
    measure: Callable[[LoadedModel], tuple[Metric, str]] | None = None  # its own similarity, and a caption saying it
    caption: str | None = None  # the key of Similarity's caption for its heatmap, where not the measure's
    compares: bool = True  # Similarity's compare mode (a configuration B beside it)
    similarity: Callable[..., np.ndarray] | None = None  # its own Similarity matrix, instead of vectors compared
    matches: Callable[..., object] | None = None  # Retrieval's per-hit token matches
    token_map: Callable[[LoadedModel], bool] = lambda model: False  # the map drawn a point a token, if chosen
    map_caption: Callable[[LoadedModel], str] | None = None  # what a map's point is, where not the text's vector
    explain: Explain = dense_panel  # "Why are these two similar?" of a pair (Similarity, Retrieval's hits)
    hit_why: Callable[..., None] | None = None  # Retrieval's "Why this hit?", where not `explain` of query and hit
    hybrid_partner: str = "BM25"  # what Retrieval fuses the model's list with at first
    corpus_caption: Callable[[LoadedModel, list[str]], str | None] | None = None  # Retrieval's corpus, where its own


VIEWS: dict[str, KindViews] = {
    "dense": KindViews(),
    "sparse": KindViews(embedding_note=_sparse_note, model_first=terms_view, evaluation_checks=_not_shown,
                        measure=_sparse_measure, caption="sparse", compares=False,
                        layer_tabs={"Terms by layer": layer_terms_view}, explain=terms_panel,
                        hybrid_partner=DEFAULT_MODEL_ID),  # a dense model: what a sparse one misses, it finds
    "late interaction": KindViews(home=late_vectors, embedding_note=_late_note, model_last=late_tokens_view,
                                  evaluation_checks=lambda settings, model: late_checks_section(model),
                                  measure=_late_measure, similarity=late_similarity, matches=model_matches,
                                  token_map=_token_map, map_caption=corpus_caption, explain=alignment_panel,
                                  hit_why=late_why, corpus_caption=late_corpus_caption),
    "reranker": KindViews(),
}


def views_of(model: LoadedModel) -> KindViews:
    return VIEWS[kind_of(model).name]
