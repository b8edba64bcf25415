"""Embedding map: a corpus projected to 2-D, coloured, with the query in place and how far to trust it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.projection import MAX_POINTS, PlacedQuery, Projection, Trust, place_query
from core.data.corpus import CorpusError
from core.data.sampling import sample_indices
from core.encoding.encoder import encode_with
from core.models.loading import LoadedModel
from core.plots.map import (Colouring, QueryMark, compare_figure, compare_points, map_figure, map_points,
                            overlap_counts, trust_figure)
from core.settings import Settings, layer_used
from ui.cache import trust_of
from ui.compare import configuration_b
from ui.downloads import csv_download
from ui.map_parts import COLOURINGS, colouring_of, map_corpus, projected, projection_inputs, trust_metrics
from ui.persist import kept
from ui.progress import embed_corpus
from ui.sidebar import page

DEFAULT_QUERY = "A man is playing a guitar on stage."
PLACEMENT = {
    "PCA": "PCA is a linear map, so the query is projected with the same axes as the corpus.",
    "t-SNE": "t-SNE has no way to add a point after the fact: the star sits at the mean map position of the "
             "query's nearest texts in the full space, so it lands near them by construction.",
}
PLACEMENT["UMAP"] = PLACEMENT["t-SNE"].replace("t-SNE", "UMAP")


def describe(settings: Settings, model: LoadedModel) -> str:
    return f"{model.model_id} · {settings.pooling} · layer {layer_used(settings.layer, model.num_layers)}"


def query_on(query: str, texts: list[str], vectors: np.ndarray, projection: Projection, model: LoadedModel,
             settings: Settings, k: int) -> tuple[QueryMark, PlacedQuery] | None:
    if not query:
        return None
    placed = place_query(projection, vectors, encode_with(model, [query], settings).vectors, texts, k=k)
    return QueryMark(query, placed.position, placed.neighbours["#"].tolist()), placed


def single_view(texts: list[str], projection: Projection, report: Trust, colouring: Colouring,
                mark: QueryMark | None, title: str) -> None:
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
        st.plotly_chart(map_figure(projection.coords, texts, colouring, query=mark, title=title), key="map_chart")
        st.caption(f"Each point is one text, coloured by {colouring.title}; hover for its text. Only closeness "
                   "means something: the axes have no units, and far-apart clusters may not be far apart in the "
                   "full space." + (" The star is the query, with lines to its nearest texts." if mark else ""))
        csv_download(map_points(texts, projection.coords, colouring, report.overlap), "map-points.csv",
                     index=False, key="map_points_csv")
    with trust_col:
        st.plotly_chart(trust_figure(report.overlap, k=report.k), key="map_trust_chart")
        st.caption(f"How many of each point's {report.k} nearest neighbours (full space, cosine) are also its "
                   f"{report.k} nearest on the map: bars on the right mean the map keeps neighbourhoods. Colour "
                   "by 'neighbour overlap' to see where it does not.")
        counts = overlap_counts(report.overlap, k=report.k)
        csv_download(pd.DataFrame({"kept": list(counts), "points": list(counts.values())}), "map-trust.csv",
                     index=False, key="map_trust_csv")


def selected(key: str) -> list[int]:
    """Point numbers selected (click, box or lasso) in the compare chart on the last run."""
    state = st.session_state.get(key)
    points = state.selection.points if state is not None and "selection" in state else []
    data = [point.get("customdata") for point in points]
    return sorted({int(d[0] if isinstance(d, list) else d) for d in data if d is not None})


def compare_view(texts: list[str], projection: Projection, report: Trust, colouring: Colouring, params: dict,
                 a: tuple[Settings, LoadedModel], query: str, top: int) -> None:
    chosen = configuration_b(a[0], prefix="map", default_model=a[0].model_id, default_pooling=a[0].pooling,
                             default_layer="middle",
                             layer_help="0 is the embedding layer. Every layer of a model comes from one pass, "
                                        "so changing only the layer is quick.")
    if chosen is None:
        return
    b_vectors = embed_corpus(chosen[1], texts, chosen[0])
    b_projection = projected(b_vectors, {**params, "method": projection.method})
    if b_projection is None:
        return
    b_report = trust_of(b_vectors, b_projection.coords, params["seed"])
    slots = st.columns(4)
    trust_metrics(report, slots[:2], " (A)")
    trust_metrics(b_report, slots[2:], " (B)")
    marks = (query_on(query, texts, embed_corpus(a[1], texts, a[0]), projection, a[1], a[0], top),
             query_on(query, texts, b_vectors, b_projection, chosen[1], chosen[0], top))
    st.plotly_chart(compare_figure(projection.coords, b_projection.coords, texts, colouring,
                                   titles=(f"A: {describe(*a)}", f"B: {describe(*chosen)}"),
                                   highlight=selected("map_compare_chart"),
                                   queries=tuple(m[0] if m else None for m in marks)),
                    key="map_compare_chart", on_select="rerun", selection_mode=("points", "box", "lasso"))
    st.caption(f"The same {len(texts):,} texts mapped with {projection.method} under two configurations; point #i "
               "is the same text in both (hover shows the number). Click, box- or lasso-select points on either "
               "side to ring the same texts on both." + (" The star is the query, placed by each configuration."
                                                          if query else ""))
    csv_download(compare_points(texts, projection.coords, b_projection.coords, colouring), "map-compare.csv",
                 index=False, key="map_compare_csv")


def query_table(placed: PlacedQuery, method: str) -> None:
    st.subheader("The query's nearest texts")
    st.dataframe(placed.neighbours, hide_index=True,
                 column_config={"cosine": st.column_config.NumberColumn(format="%.3f")})
    st.caption("Nearest by cosine in the full space, best first. 'Rank on the map' counts from the point nearest "
               "to the star: where it is much larger than the full-space rank, the map misleads. " + PLACEMENT[method])
    csv_download(placed.neighbours, "map-query-neighbours.csv", index=False, key="map_query_csv")


def main() -> None:
    settings, model = page("Embedding map")
    st.caption(f"Every text of a corpus becomes a point; nearby points have similar embeddings. A 2-D map must "
               f"distort a {model.hidden_size}-dimensional space, so the trust numbers below say how much of each "
               "point's neighbourhood survived.")
    corpus_col, method_col, colour_col = st.columns([1.1, 1.2, 1])
    with corpus_col:
        try:
            loaded = map_corpus()
        except CorpusError as err:
            st.error(str(err))
            loaded = None
    with method_col:
        params = projection_inputs()
    if loaded is None:
        return
    frame, extra = loaded
    if len(frame) > MAX_POINTS:
        picked = sample_indices(len(frame), limit=MAX_POINTS, seed=params["seed"])
        st.info(f"The corpus has {len(frame):,} texts; the map shows a random sample of {len(picked):,} "
                f"(seed {params['seed']}), drawn with WebGL.")
        frame = frame.iloc[picked].reset_index(drop=True)
    with colour_col:
        options = [*extra, *COLOURINGS]
        choice = kept(st.selectbox, "Colour by", key="map_colour", url=True, default=options[0], options=options,
                      must_be_option=True, help="A label of the data, k-means clusters of the full vectors, the "
                                                "text's length in characters, or how many of a point's neighbours "
                                                "the map kept.")
        k = kept(st.number_input, "Clusters (k)", key="map_k", url=True, default=8, min_value=2, max_value=40)
        query = kept(st.text_input, "Query", key="map_query", url=True, default=DEFAULT_QUERY,
                     help="Embedded with the sidebar's settings and drawn as a star, with lines to its nearest "
                          "texts in the full space.").strip()
        top = kept(st.slider, "Neighbours of the query", key="map_top", url=True, default=5, min_value=1, max_value=20)
        compare = kept(st.toggle, "Compare with configuration B", key="map_compare", url=True, default=False,
                       help="Map the same texts under a second model, pooling or layer, side by side.")
    texts = frame["text"].tolist()
    vectors = embed_corpus(model, texts, settings)
    projection = projected(vectors, params)
    if projection is None:
        return
    report = trust_of(vectors, projection.coords, params["seed"])
    colouring = colouring_of(choice, frame, extra, vectors, min(int(k), len(frame)), params["seed"], report.overlap)
    top = min(top, len(frame))
    found = query_on(query, texts, vectors, projection, model, settings, top)
    if compare:
        compare_view(texts, projection, report, colouring, params, (settings, model), query, top)
    else:
        single_view(texts, projection, report, colouring, found[0] if found else None,
                    f"{projection.method} of {describe(settings, model)}")
    if found is not None:
        query_table(found[1], projection.method)


main()
