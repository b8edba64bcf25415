"""Embedding map: a corpus projected to 2-D, coloured, with the query in place and how far to trust it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.clusters import matching, query_in_space, spherize
from core.analysis.map.projection import MAX_POINTS, PlacedQuery, Projection, ProjectionParams, Trust, place_query
from core.data.corpus import CorpusError
from core.data.sampling import sample_indices
from core.encoding.prompts import with_role
from core.jobs import Job
from core.models.loading import LoadedModel
from core.plots.map import (
    Colouring,
    QueryMark,
    compare_figure,
    compare_points,
    map_figure,
    map_points,
    overlap_counts,
    trust_figure,
)
from core.settings import Settings
from ui.components.compare import configuration_b, describe
from ui.components.downloads import csv_download
from ui.components.sidebar import page
from ui.pages.map import (
    ALIGNMENT,
    CLUSTERS,
    DENSITY,
    colouring_of,
    compared,
    map_corpus,
    map_inputs,
    projected,
    projection_inputs,
    trust_metrics,
)
from ui.pages.map_tools import (
    cluster_labels,
    cluster_panel,
    compare_selection,
    export_panel,
    full_set_neighbours,
    movers_panel,
    query_table,
    remember_selection,
    selection_mask,
    selection_panel,
)
from ui.state.persist import kept
from ui.work.background import corpus_job, job_status
from ui.work.cache import trust_of


def query_on(query: str, vector: np.ndarray | None, texts: list[str], space: np.ndarray, projection: Projection,
             k: int) -> tuple[QueryMark, PlacedQuery] | None:
    """The query's star and nearest texts, from its vector in the same space as the points."""
    if vector is None:
        return None
    placed = place_query(projection, space, vector[None], texts, k=k)
    return QueryMark(query, placed.position, placed.neighbours["#"].tolist()), placed


def single_view(texts: list[str], projection: Projection, report: Trust, colouring: Colouring,
                mark: QueryMark | None, title: str, highlight: np.ndarray | None,
                labels: list[tuple[float, float, str]]) -> None:
    facts = st.columns(4)
    facts[0].metric("Points", f"{len(texts):,}")
    if projection.explained_variance is not None:
        first, second = projection.explained_variance
        facts[1].metric("Variance on the map (PCA)", f"{first + second:.1%}",
                        help=f"Axis 1 explains {first:.1%} of the variance, axis 2 {second:.1%}; the rest lies in "
                             "directions the map cannot show.")
    else:
        facts[1].metric("Method", projection.method, help=", ".join(f"{k} {v}" for k, v in projection.params.items()))
    trust_metrics(report, facts[2:])
    map_col, trust_col = st.columns([3, 1.2])
    with map_col:
        figure = map_figure(projection.coords, texts, colouring, query=mark, title=title, highlight=highlight,
                            labels=labels)
        st.plotly_chart(figure, key="map_chart", on_select=lambda: remember_selection("map_chart"),
                        selection_mode=("points", "box", "lasso"))
        st.caption(f"Each point is one text, coloured by {colouring.title}; hover for its text, click or drag a box "
                   "or lasso to select. Only closeness means something: the axes have no units, and far-apart "
                   "clusters may not be far apart in the full space."
                   + (" The star is the query, with lines to its nearest texts." if mark else ""))
        csv_download(map_points(texts, projection.coords, colouring, report.overlap), "map-points.csv",
                     index=False, key="map_points_csv")
    with trust_col:
        st.plotly_chart(trust_figure(report.overlap, k=report.k), key="map_trust_chart")
        st.caption(f"How many of each point's {report.k} nearest neighbours (full space, cosine) are also its "
                   f"{report.k} nearest on the map: bars on the right mean the map keeps neighbourhoods. Colour "
                   "by 'neighbour overlap' to see where it does not."
                   + (f" Measured on a seeded sample of {report.points:,} of the {len(texts):,} points (each "
                      "searched among all of them); the others are grey." if report.sampled else ""))
        counts = overlap_counts(report.overlap, k=report.k)
        csv_download(pd.DataFrame({"kept": list(counts), "points": list(counts.values())}), "map-trust.csv",
                     index=False, key="map_trust_csv")


def compare_view(texts: list[str], a_raw: np.ndarray, space: np.ndarray, projection: Projection,
                 colouring: Colouring, params: ProjectionParams, a: tuple[Settings, LoadedModel], query: str, top: int,
                 centred: bool) -> None:
    chosen = configuration_b(a[0], prefix="map", default_model=a[0].model_id, default_pooling=a[0].pooling,
                             default_layer="middle",
                             layer_help="0 is the embedding layer. Every layer of a model comes from one pass, "
                                        "so changing only the layer is quick.")
    if chosen is None:
        return
    raw = corpus_job(chosen[1], texts, with_role(chosen[0], chosen[1].pipeline, "document"))
    if isinstance(raw, Job):
        job_status(raw)
        return
    b_space = spherize(raw) if centred else raw
    pair = compared(space, b_space, projection, params)
    if pair is None:
        return
    projection, b_coords = pair
    report, b_report = (trust_of(points, coords, params.seed) for points, coords in ((space, projection.coords),
                                                                                         (b_space, b_coords)))
    slots = st.columns(4)
    trust_metrics(report, slots[:2], " (A)")
    trust_metrics(b_report, slots[2:], " (B)")
    marks = []
    for (settings, model), vectors, points, coords in ((a, a_raw, space, projection.coords),
                                                       (chosen, raw, b_space, b_coords)):
        vector = query_in_space(model, query, with_role(settings, model.pipeline, "query"),
                                vectors if centred else None) if query else None
        marks.append(query_on(query, vector, texts, points, replace(projection, coords=coords), top))
    st.plotly_chart(compare_figure(projection.coords, b_coords, texts, colouring,
                                   titles=(f"A: {describe(*a)}", f"B: {describe(*chosen)}"),
                                   highlight=compare_selection("map_compare_chart"),
                                   queries=tuple(m[0] if m else None for m in marks)),
                    key="map_compare_chart", on_select="rerun", selection_mode=("points", "box", "lasso"))
    alignment = ALIGNMENT.get(projection.method, ALIGNMENT["PCA"])
    st.caption(f"The same {len(texts):,} texts mapped with {projection.method} under two configurations, "
               f"{alignment} so that movement means something; point #i is the same text in both (hover shows the "
               "number). Click, box- or lasso-select points on either side to ring the same texts on both."
               + (" The star is the query, placed by each configuration." if query else ""))
    csv_download(compare_points(texts, projection.coords, b_coords, colouring), "map-compare.csv",
                 index=False, key="map_compare_csv")
    movers_panel(texts, space, b_space, projection.coords, b_coords, alignment, params.seed)


def main() -> None:
    settings, model = page("Embedding map")
    st.caption(f"Every text of a corpus becomes a point; nearby points have similar embeddings. A 2-D map must "
               f"distort a {model.hidden_size}-dimensional space, so the trust numbers below say how much of each "
               "point's neighbourhood survived.")
    corpus_col, method_col, colour_col = st.columns([1.1, 1.2, 1])
    with corpus_col:
        try:
            corpus = map_corpus()
        except CorpusError as err:
            st.error(str(err))
            corpus = None
    with method_col:
        params = projection_inputs()
        centred = kept(st.toggle, "Spherize: centre, then unit length", key="map_centre", url=True, default=False,
                       help="Removes the direction all texts share, so the map shows what sets them apart.")
    if corpus is None:
        return
    frame, raw = corpus.frame, corpus.vectors
    if len(frame) > MAX_POINTS:
        picked = sample_indices(len(frame), limit=MAX_POINTS, seed=params.seed)
        st.info(f"The corpus has {len(frame):,} texts; the map shows a random sample of {len(picked):,} "
                f"(seed {params.seed}), drawn with WebGL.")
        frame, raw = frame.iloc[picked].reset_index(drop=True), None if raw is None else raw[picked]
    with colour_col:
        chosen = map_inputs(corpus, len(frame), model.hidden_size)
    texts = frame["text"].tolist()
    raw = corpus_job(model, texts, with_role(settings, model.pipeline, "document")) if raw is None else raw
    if isinstance(raw, Job):
        job_status(raw)
        return
    space = spherize(raw) if centred else raw
    projection = projected(space, params)
    if projection is None:
        return
    report = trust_of(space, projection.coords, params.seed)
    chosen["k"] = min(int(chosen["k"]), len(frame))
    colouring = colouring_of(chosen["choice"], frame, corpus.colourings, space, projection.coords, chosen,
                             params.seed, report.overlap)
    try:
        highlight = matching(texts, chosen["find"], regex=chosen["regex"]) if chosen["find"] else None
        highlight = selection_mask(len(texts), highlight)
    except ValueError as err:
        st.error(str(err))
        highlight = None
    top = min(chosen["top"], len(frame))
    if "row" in chosen:
        query, vector = texts[chosen["row"]], space[chosen["row"]]
    else:
        query = chosen["query"]
        vector = query_in_space(model, query, with_role(settings, model.pipeline, "query"),
                                raw if centred else None) if query else None
    found = query_on(query, vector, texts, space, projection, top)
    clusters = chosen["choice"] in (CLUSTERS, DENSITY) and cluster_labels(projection.coords, texts, colouring.values)
    if chosen["compare"]:
        compare_view(texts, raw, space, projection, colouring, params, (settings, model), query, top, centred)
    else:
        single_view(texts, projection, report, colouring, found[0] if found else None,
                    f"{projection.method} of " + (f"the vectors in {corpus.files}" if corpus.files else
                                                  describe(settings, model)),
                    highlight, clusters[1] if clusters else [])
        selection_panel(frame, space, projection.coords)
    if clusters:
        cluster_panel(clusters[0])
    if found is not None:
        query_table(found[1], projection.method)
        if corpus.dataset is not None:  # from the stored vectors, never the spherized ones
            full_set_neighbours(corpus.dataset, raw[chosen["row"]] if "row" in chosen else
                                query_in_space(model, query, with_role(settings, model.pipeline, "query"), None), top,
                                len(frame))
    export_panel(frame, raw)


main()
