"""Embedding map: a corpus projected to 2-D, coloured, with the query in place and how far to trust it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.clusters import matching, spherize
from core.analysis.map.projection import MAX_POINTS, Projection, ProjectionParams
from core.data.corpus import CorpusError
from core.data.sampling import sample_indices
from core.hashing import texts_digest
from core.kinds import kind_of
from core.maps.build import map_title, query_mark
from core.maps.space import MapSpace, query_point
from core.models.loading import LoadedModel
from core.settings import Settings
from ui.components.compare import describe
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.map.corpus import MapCorpus, map_corpus
from ui.pages.map.index_check import index_check_panel
from ui.pages.map.inputs import CLUSTERS, DENSITY, MapInputs, map_inputs, projection_inputs
from ui.pages.map.projection import colouring_of, projected
from ui.pages.map.sets import sets_panel
from ui.pages.map.tags import store, tag_selection, tags_panel, with_tags
from ui.pages.map.tools import (
    cluster_panel,
    cluster_table,
    export_panel,
    full_set_neighbours,
    query_table,
)
from ui.pages.map.views import compare_view, single_view
from ui.state.persist import kept
from ui.work.background import map_space_job, waiting
from ui.work.cache import labels_of, trust_of


@dataclass(frozen=True)
class Points:
    """The rows on the map (`row_id`, `text`, labels) and their vectors: `stored` as a file gave them or as the model's
    kind gives them (core.maps.space: a sparse model's reduced), `space` the map's (spherized when asked)."""

    frame: pd.DataFrame
    stored: MapSpace
    space: np.ndarray

    @property
    def raw(self) -> np.ndarray:
        return self.stored.vectors

    @property
    def texts(self) -> list[str]:
        return self.frame["text"].tolist()


def main() -> None:
    settings, model = page("Embedding map")
    kind = kind_of(model)
    if views_of(model).token_map(model):  # one point a token, when the user chose it
        return
    width = kind.space_width(model)
    st.caption(f"Every text of a corpus becomes a point; nearby points have similar embeddings. A 2-D map must "
               f"distort a {width:,}-dimensional space, so the trust numbers below say how much of each point's "
               "neighbourhood survived.")
    corpus_col, method_col, colour_col = st.columns([1.1, 1.2, 1])
    with corpus_col:
        corpus = _corpus()
    with method_col:
        params = projection_inputs()
        centred = kept(st.toggle, "Spherize: centre, then unit length", key="map_centre", url=True, default=False,
                       help="Removes the direction all texts share, so the map shows what sets them apart.")
    if corpus is None:
        return
    corpus = with_tags(corpus)
    frame, raw = _sample(corpus, params.seed)
    with colour_col:
        chosen = map_inputs(corpus, len(frame), width)
    points = _points(settings, model, frame, raw, centred)
    projection = None if points is None else projected(points.space, params)
    if points is None or projection is None:
        return
    _map(settings, model, corpus, points, projection, chosen, params, centred)
    export_panel(points.frame, points.raw)


def _corpus() -> MapCorpus | None:
    try:
        return map_corpus()
    except CorpusError as err:
        st.error(str(err))
        return None


def _sample(corpus: MapCorpus, seed: int) -> tuple[pd.DataFrame, np.ndarray | None]:
    """The corpus's rows (and stored vectors), or a seeded sample of MAX_POINTS of them, each with its row id."""
    if len(corpus.frame) <= MAX_POINTS:
        return corpus.frame, corpus.vectors
    picked = sample_indices(len(corpus.frame), limit=MAX_POINTS, seed=seed)
    st.info(f"The corpus has {len(corpus.frame):,} texts; the map shows a random sample of {len(picked):,} "
            f"(seed {seed}).")
    return (corpus.frame.iloc[picked].reset_index(drop=True),
            None if corpus.vectors is None else corpus.vectors[picked])


def _points(settings: Settings, model: LoadedModel, frame: pd.DataFrame, raw: np.ndarray | None,
            centred: bool) -> Points | None:
    """The vectors to map: the file's, or the model's (None, with its progress, until they are)."""
    if raw is None:
        stored = map_space_job(model, frame["text"].tolist(), settings)
        if waiting(stored):
            return None
        caption = views_of(model).map_caption
        if caption is not None:
            st.caption(caption(model))
        if stored.reduction is not None:
            st.caption(f"{model.model_id}'s sparse vectors ({model.dimensions:,} dimensions, almost all zero) are "
                       f"first reduced to {stored.vectors.shape[1]} by TruncatedSVD on their CSR matrix, keeping "
                       f"{stored.reduction.kept:.0%} of their variance; the map and its neighbours are measured in "
                       "that space.")
    else:
        stored = MapSpace(raw)
    return Points(frame, stored, spherize(stored.vectors) if centred else stored.vectors)


def _map(settings: Settings, model: LoadedModel, corpus: MapCorpus, points: Points, projection: Projection,
         chosen: MapInputs, params: ProjectionParams, centred: bool) -> None:
    """The map (or A and B side by side), then what it shows: the clusters and the query's nearest texts."""
    texts, kind = points.texts, kind_of(model)
    report = trust_of(points.space, projection.coords, params.seed)
    colouring = colouring_of(chosen, points.frame, corpus.colourings, points.space, projection.coords, params.seed,
                             report.overlap)
    highlight = _highlight(texts, chosen)
    query, vector = _query(settings, model, points, chosen, centred)
    found = None if vector is None else query_mark(query, vector, points.space, projection, texts, top=chosen.top)
    clustered = chosen.colour in (CLUSTERS, DENSITY) and colouring.categorical
    labels = labels_of(texts_digest(texts), projection.coords, colouring.values if clustered else None, params.seed,
                       texts)
    compared = False
    if chosen.compare and not kind.applies.compare:
        st.info(views_of(model).not_shown["compare"])
    elif chosen.compare:  # False while B is still to download: A is drawn alone
        compared = compare_view(points.frame, points.stored, points.space, projection, colouring, params,
                                (settings, model), query, chosen.top, centred, highlight, store().tags(corpus.key))
    if not compared:
        title = (f"{projection.method} of the vectors in {corpus.files}" if corpus.files else
                 map_title(projection.method, len(points.frame), describe(settings, model)))
        single_view(points.frame, points.space, projection, report, colouring, found[0] if found else None, title,
                    highlight, labels, lambda row_ids: tag_selection(corpus, row_ids), store().tags(corpus.key))
    if corpus.sets is not None:  # two sets compared: how far apart, right below their map
        sets_panel(model, settings, *corpus.sets)
    elif corpus.vectors is not None:  # vectors as a file or a dataset stored them: are they still the model's?
        index_check_panel(model, settings, points.frame, points.raw)
    if clustered:
        cluster_panel(cluster_table(texts, colouring.values))
    if found is not None:
        query_table(found[1], projection.method)
        if corpus.dataset is not None:  # from the stored vectors, never the spherized ones
            full_set_neighbours(corpus.dataset, points.raw[chosen.row] if chosen.row is not None else
                                query_point(model, query, settings, points.stored), chosen.top, len(points.frame))
    tags_panel(corpus, points.frame, projection.coords)


def _highlight(texts: list[str], chosen: MapInputs) -> np.ndarray | None:
    try:
        return matching(texts, chosen.find, regex=chosen.regex) if chosen.find else None
    except ValueError as err:
        st.error(str(err))
        return None


def _query(settings: Settings, model: LoadedModel, points: Points, chosen: MapInputs,
           centred: bool) -> tuple[str, np.ndarray | None]:
    """The query and its vector in the map's space: a text of the corpus, or a typed one embedded (None for none)."""
    if chosen.row is not None:
        return points.texts[chosen.row], points.space[chosen.row]
    if not chosen.query:
        return chosen.query, None
    return chosen.query, query_point(model, chosen.query, settings, points.stored,
                                     centre=np.mean(points.raw, axis=0) if centred else None)


main()
