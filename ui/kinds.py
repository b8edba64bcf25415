"""The one place in ui/ that maps a model's kind to what the pages draw and say for it beyond what every kind
shares: Home's and Model's extra sections, Evaluation's model checks, Layers' extra tab, Similarity's own matrix,
Retrieval's token matches and the map's token view, and the pages' sentences about the kind (core.kinds holds its
facts and computation). A page asks `views_of(model)`; it does not compare kinds."""

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
    st.info(views_of(model).not_shown["quantization"].format(model=model.model_id))


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
    # after the transformer, in the Model page's modules table
    modules_sentence: str = "how its token vectors become one vector (from the folder's modules.json)"
    sts_texts: str = "sentences"  # what Evaluation's STS embeds
    sts_note: str = ""  # said after the STS correlation, where the kind reads a pair its own way
    pair_names: tuple[str, str] = ("Text A", "Text B")  # the two texts a "why" explains, as pickers name them
    hits_rule: str = ""  # which of a ranking's texts are hits, where the scores have no fixed scale
    saved: str = "choose it in the sidebar on any page."  # where Fine-tune sends a model of this kind
    # why a view is not shown for this kind (by a field of core.kinds.Applies, or the view's name); {model}: its id
    not_shown: dict[str, str] = field(default_factory=dict)


VIEWS: dict[str, KindViews] = {
    "dense": KindViews(),
    "sparse": KindViews(
        embedding_note=_sparse_note, model_first=terms_view, evaluation_checks=_not_shown,
        measure=_sparse_measure, caption="sparse", compares=False, layer_tabs={"Terms by layer": layer_terms_view},
        explain=terms_panel, hybrid_partner=DEFAULT_MODEL_ID,  # a dense model: what a sparse one misses, it finds
        modules_sentence="how its token vectors become one vector (from the folder's modules.json; a plain masked-LM "
                         "checkpoint gets the masked LM and SPLADE max pooling, as sentence-transformers builds it)",
        hits_rule="A sparse model's hits are the texts that share a term with the query.",
        not_shown={
            "layer_sweep": "The layer sweep pools each layer's token states as a dense model does, so it is not shown "
                           "for a sparse model; the Layers page shows which terms each of its layers would turn on.",
            "quantization": "The model checks measure what prompts, fewer dimensions and lower precision cost a dense "
                            "model's vectors; {model} is sparse. Choose a dense model in the sidebar, or compare it "
                            "with BM25 and a hybrid under Retrieval.",
            "compare": "Compare mode maps two dense configurations side by side; the sidebar's model is sparse, so its "
                       "map is drawn alone."}),
    "late interaction": KindViews(
        home=late_vectors, embedding_note=_late_note, model_last=late_tokens_view,
        evaluation_checks=lambda settings, model: late_checks_section(model), measure=_late_measure,
        similarity=late_similarity, matches=model_matches, token_map=_token_map, map_caption=corpus_caption,
        explain=alignment_panel, hit_why=late_why, corpus_caption=late_corpus_caption,
        modules_sentence="which token vectors are kept and how each is shaped (a late-interaction model keeps one per "
                         "token) (from the folder's modules.json)",
        sts_texts="pairs (sentence 1 as a query, sentence 2 as a document)",
        sts_note=" A late-interaction score is not symmetric: sentence 1 is read as the query (encode_query) and "
                 "sentence 2 as the document (encode_document), as retrieval reads a query and a text.",
        pair_names=("Text A (the query: a row)", "Text B (the document: a column)"),
        hits_rule="A MaxSim score adds up each query token's best match, so it has no fixed scale: every hit of the "
                  "top k is listed.",
        saved="a late-interaction model: choose it in the sidebar.",
        not_shown={
            "layer_sweep": "The layer sweep pools each layer's token states into one vector as a dense model does, so "
                           "it is not shown for a late-interaction model, which keeps a vector per token and scores "
                           "a pair by matching them.",
            "compare": "Compare mode maps two dense configurations side by side; the sidebar's model is a "
                       "late-interaction one (its points are means of its token vectors), so its map is drawn alone.",
            "layer_agreement": "Layer agreement ranks the cosines of pooled sentence vectors at each layer against the "
                               "last; a late-interaction model pools no sentence vector (its scores are MaxSim over "
                               "the projected token vectors of the last layer only), so there is nothing to rank at "
                               "the other layers.",
            "drift": "Drift (CKA and neighbours kept) is measured on one vector per sentence, and a late-interaction "
                     "model keeps one per token, so its run records none; its heatmap below compares it with the "
                     "base."}),
    "reranker": KindViews(
        saved="a reranker: use it under Rerank on Retrieval and Evaluation.",
        not_shown={
            "one_vector_per_text": "A reranker scores pairs and embeds no text, so it has no similarity heatmap: "
                                   "rerank a query with it on Retrieval, or measure what it changes on Evaluation's "
                                   "Rerank."}),
}


def views_of(model: LoadedModel | str) -> KindViews:
    """What the pages draw and say for the kind of `model` (a loaded model, or a kind's name)."""
    return VIEWS[kind_of(model).name]
