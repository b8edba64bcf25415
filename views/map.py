"""Embedding map: a corpus projected to 2-D, coloured, with the query in place and how far to trust it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.projection import (MAX_POINTS, METHODS, Projection, Trust, kmeans_clusters, map_ranks, nearest,
                                      place_queries, project, trust)
from core.data.corpus import CorpusError, labelled_corpus, lines
from core.data.sampling import sample_indices
from core.data.stsb import stsb_genres, stsb_sample
from core.data.uploads import column, text_columns
from core.encoding.encoder import encode_with
from core.models.loading import LoadedModel
from core.plots.map import (Colouring, QueryMark, categories, compare_figure, fits_legend, map_figure, numbers,
                            overlap_counts, trust_figure)
from core.settings import Settings, layer_used
from ui.compare import configuration_b
from ui.downloads import csv_download
from ui.persist import kept, set_kept
from ui.progress import embed_corpus
from ui.sidebar import active
from ui.similarity_texts import similarity_texts
from ui.upload import uploaded_corpus

SOURCES = {"stsb": "STS-B sentences (built in)", "upload": "Upload a file", "similarity": "Texts of the Similarity page"}
CLUSTERS, LENGTH, OVERLAP = "k-means clusters", "text length", "neighbour overlap"
DEFAULT_QUERY = "A man is playing a guitar on stage."
PLACEMENT = {
    "PCA": "PCA is a linear map, so the query is projected with the same axes as the corpus.",
    "t-SNE": "t-SNE has no way to add a point after the fact: the star sits at the mean map position of the "
             "query's nearest texts in the full space, so it lands near them by construction.",
}
PLACEMENT["UMAP"] = PLACEMENT["t-SNE"].replace("t-SNE", "UMAP")


@st.cache_data(show_spinner=False, max_entries=16)
def _projection(vectors: np.ndarray, method: str, perplexity: float, neighbours: int, min_dist: float,
                seed: int) -> Projection:
    return project(vectors, method=method, perplexity=perplexity, neighbours=neighbours, min_dist=min_dist,
                   seed=seed)


@st.cache_data(show_spinner=False, max_entries=16)
def _trust(vectors: np.ndarray, coords: np.ndarray, seed: int) -> Trust:
    return trust(vectors, coords, seed=seed)


@st.cache_data(show_spinner=False, max_entries=16)
def _clusters(vectors: np.ndarray, k: int, seed: int) -> np.ndarray:
    return kmeans_clusters(vectors, k=k, seed=seed)


def _colour_by_label() -> None:
    """Picking a label column means: colour by it."""
    label = st.session_state.map_label_col
    if label != "(none)":
        set_kept("map_colour", label)


def _corpus() -> tuple[pd.DataFrame, dict[str, str]] | None:
    """The corpus table (`text`, optional `genre` / `label`) and the colourings it brings; None if not ready."""
    source = kept(st.radio, "Corpus", key="map_source", default="stsb", options=list(SOURCES),
                  format_func=SOURCES.get)
    if source == "stsb":
        total = len(stsb_genres())
        size = kept(st.number_input, "Sentences in the sample", key="map_size", default=1_500, min_value=2,
                    max_value=total, step=500, help=f"A seeded random sample of the {total:,} distinct STS-B "
                                                    "sentences (news, image captions, forums).")
        return stsb_sample(int(size)), {"genre": "genre"}
    if source == "similarity":
        st.caption("The texts typed on the Similarity page (its example set until you edit it there).")
        return labelled_corpus(lines(similarity_texts())), {}
    uploaded = uploaded_corpus(file_key="map_upload", column_key="map_text_col",
                               help=".txt: one text a line; .csv / .jsonl: pick the text column and, if you like, "
                                    "a label column to colour by.")
    if uploaded is None:
        return None
    table, text_col = uploaded
    label_col = st.selectbox("Label column (colour)", ["(none)", *[c for c in text_columns(table) if c != text_col]],
                             key="map_label_col", on_change=_colour_by_label)
    labels = None if label_col == "(none)" else column(table, label_col)
    frame = labelled_corpus(column(table, text_col), labels)
    dropped = len(table) - len(frame)
    if dropped:
        st.caption(f"{dropped:,} empty or repeated row(s) were dropped: each text is one point.")
    return frame, ({label_col: "label"} if labels is not None else {})


def _method_controls() -> dict[str, float | int | str]:
    method = kept(st.radio, "Projection", key="map_method", default="PCA", options=list(METHODS), horizontal=True,
                  help="PCA: linear, instant, keeps large distances. t-SNE and UMAP: non-linear, keep local "
                       "neighbourhoods, take longer (UMAP's first run compiles for about a minute).")
    perplexity = kept(st.number_input, "Perplexity (t-SNE)", key="map_perplexity", default=30.0, min_value=1.0,
                      max_value=100.0, step=5.0, disabled=method != "t-SNE",
                      help="About how many neighbours each point attends to; must be below the point count.")
    left, right = st.columns(2)
    neighbours = kept(left.number_input, "Neighbours (UMAP)", key="map_neighbours", default=15, min_value=2,
                      max_value=200, step=5, disabled=method != "UMAP", help="Larger keeps more global structure.")
    min_dist = kept(right.number_input, "min_dist (UMAP)", key="map_min_dist", default=0.1, min_value=0.0,
                    max_value=1.0, step=0.05, disabled=method != "UMAP", help="How tightly points may pack.")
    seed = kept(st.number_input, "Random seed", key="map_seed", default=0, min_value=0, max_value=2**31 - 1,
                help="Fixes t-SNE, UMAP, k-means and any sampling, so the same settings give the same map.")
    return {"method": method, "perplexity": float(perplexity), "neighbours": int(neighbours),
            "min_dist": float(min_dist), "seed": int(seed)}


def _projected(vectors: np.ndarray, params: dict) -> Projection | None:
    """The chosen projection; when it cannot run on these points, say why and fall back to PCA."""
    method = params["method"]
    try:
        with st.spinner(f"Running {method} on {len(vectors):,} points…"):
            return _projection(vectors, **params)
    except ValueError as err:
        if method == "PCA":
            st.error(str(err))
            return None
        message = str(err)
    try:
        fallback = _projection(vectors, **{**params, "method": "PCA"})
    except ValueError as err:
        st.error(f"{message} PCA cannot run either: {err}")
        return None
    st.warning(f"{message} Showing PCA instead.")
    return fallback


def _colouring(choice: str, frame: pd.DataFrame, extra: dict[str, str], vectors: np.ndarray, k: int, seed: int,
               overlap: np.ndarray) -> Colouring:
    if choice in extra:
        labels = frame[extra[choice]].tolist()
        if fits_legend(labels):
            return categories(labels, title=choice)
        name = choice.replace("`", "")  # the user's column name, shown as code, never as markdown
        st.info(f"The column `{name}` has {len(set(labels)):,} distinct values, too many to tell apart by "
                f"colour; the map is coloured by {k} k-means clusters instead.")
    if choice == LENGTH:
        return numbers(frame["text"].str.len(), title="characters")
    if choice == OVERLAP:
        return numbers(overlap, title="overlap")
    return categories(_clusters(vectors, k, seed), title="cluster")


def _describe(settings: Settings, model: LoadedModel) -> str:
    return f"{model.model_id} · {settings.pooling} · layer {layer_used(settings.layer, model.num_layers)}"


def _trust_metrics(report: Trust, slots: list, label: str = "") -> None:
    slots[0].metric(f"Neighbours kept{label}", f"{report.mean_overlap:.0%}",
                    help=f"On average, this share of each point's {report.k} nearest neighbours in the full space "
                         f"(cosine) are also among its {report.k} nearest on the map.")
    slots[1].metric(f"Trustworthiness{label}",
                    "—" if report.trustworthiness is None else f"{report.trustworthiness:.3f}",
                    help="scikit-learn's trustworthiness (1 = no point on the map has neighbours that are far in "
                         f"the full space), over {report.trustworthiness_points:,} points.")


def _query(query: str, frame: pd.DataFrame, vectors: np.ndarray, projection: Projection, model: LoadedModel,
           settings: Settings, k: int) -> tuple[QueryMark, pd.DataFrame] | None:
    """The query on the map, and its nearest texts with cosine and rank in both spaces."""
    if not query.strip():
        return None
    q = encode_with(model, [query.strip()], settings).vectors
    indices, scores = nearest(vectors, q, k=k)
    position = place_queries(projection, vectors, q, k=k)[0]
    ranks = map_ranks(projection.coords, position, indices[0])
    table = pd.DataFrame({"rank (full space)": np.arange(1, len(indices[0]) + 1), "cosine": scores[0],
                          "rank on the map": ranks, "#": indices[0], "text": frame["text"].to_numpy()[indices[0]]})
    return QueryMark(query.strip(), (float(position[0]), float(position[1])), indices[0].tolist()), table


def _points_frame(frame: pd.DataFrame, coords: np.ndarray, colouring: Colouring, overlap: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"#": np.arange(len(frame)), "text": frame["text"], "x": coords[:, 0], "y": coords[:, 1],
                         colouring.title: colouring.values, "neighbour overlap": overlap})


def main() -> None:
    settings, model = active()
    st.title("Embedding map")
    st.caption(f"Every text of a corpus becomes a point; nearby points have similar embeddings. A 2-D map must "
               f"distort a {model.hidden_size}-dimensional space, so the trust numbers below say how much of each "
               "point's neighbourhood survived.")
    corpus_col, method_col, colour_col = st.columns([1.1, 1.2, 1])
    with corpus_col:
        try:
            loaded = _corpus()
        except CorpusError as err:
            st.error(str(err))
            loaded = None
    if loaded is None:
        return
    frame, extra = loaded
    with method_col:
        params = _method_controls()
    if len(frame) > MAX_POINTS:
        picked = sample_indices(len(frame), limit=MAX_POINTS, seed=params["seed"])
        st.info(f"The corpus has {len(frame):,} texts; the map shows a random sample of {len(picked):,} "
                f"(seed {params['seed']}), drawn with WebGL.")
        frame = frame.iloc[picked].reset_index(drop=True)
    with colour_col:
        options = [*extra, CLUSTERS, LENGTH, OVERLAP]
        choice = kept(st.selectbox, "Colour by", key="map_colour", default=options[0], options=options,
                      must_be_option=True,
                      help="A label of the data, k-means clusters of the full vectors, the text's length in "
                           "characters, or how many of a point's neighbours the map kept.")
        k = kept(st.number_input, "Clusters (k)", key="map_k", default=8, min_value=2, max_value=40)
        query = kept(st.text_input, "Query", key="map_query", default=DEFAULT_QUERY,
                     help="Embedded with the sidebar's settings and drawn as a star, with lines to its nearest "
                          "texts in the full space.")
        top = kept(st.slider, "Neighbours of the query", key="map_top", default=5, min_value=1, max_value=20)
        compare = kept(st.toggle, "Compare with a second configuration (B)", key="map_compare", default=False)
    vectors = embed_corpus(model, frame["text"].tolist(), settings)
    projection = _projected(vectors, params)
    if projection is None:
        return
    report = _trust(vectors, projection.coords, params["seed"])
    colouring = _colouring(choice, frame, extra, vectors, min(int(k), len(frame)), params["seed"], report.overlap)
    found = _query(query, frame, vectors, projection, model, settings, min(top, len(frame)))
    if compare:
        _compare_view(frame, projection, report, colouring, params, settings, model)
    else:
        _single_view(frame, projection, report, colouring, found[0] if found else None, settings, model)
    if found is not None:
        _query_table(found[1], projection)


def _single_view(frame: pd.DataFrame, projection: Projection, report: Trust, colouring: Colouring,
                 mark: QueryMark | None, settings: Settings, model: LoadedModel) -> None:
    facts = st.columns(4)
    facts[0].metric("Points", f"{len(frame):,}")
    with facts[1]:
        if projection.explained_variance is not None:
            first, second = projection.explained_variance
            st.metric("Variance on the map (PCA)", f"{first + second:.1%}",
                      help=f"Axis 1 explains {first:.1%} of the variance, axis 2 {second:.1%}; the rest lies in "
                           "directions the map cannot show.")
        else:
            st.metric("Method", projection.method, help=", ".join(f"{k} {v}" for k, v in projection.params.items()))
    _trust_metrics(report, facts[2:])
    map_col, trust_col = st.columns([3, 1.2])
    with map_col:
        title = f"{projection.method} of {_describe(settings, model)}"
        st.plotly_chart(map_figure(projection.coords, frame["text"].tolist(), colouring, query=mark, title=title),
                        key="map_chart")
        st.caption(f"Each point is one text, coloured by {colouring.title}; hover for its text. Only closeness "
                   "means something: the axes have no units, and far-apart clusters may not be far apart in the "
                   "full space.")
        csv_download(_points_frame(frame, projection.coords, colouring, report.overlap), "map-points.csv",
                     index=False, key="map_points_csv")
    with trust_col:
        st.plotly_chart(trust_figure(report.overlap, k=report.k), key="map_trust_chart")
        st.caption(f"How many of each point's {report.k} nearest neighbours (full space, cosine) are also its "
                   f"{report.k} nearest on the map: bars on the right mean the map keeps neighbourhoods. Colour "
                   "by 'neighbour overlap' to see where it does not.")
        counts = overlap_counts(report.overlap, k=report.k)
        csv_download(pd.DataFrame({"kept": list(counts), "points": list(counts.values())}), "map-trust.csv",
                     index=False, key="map_trust_csv")


def _selected(key: str) -> list[int]:
    """Point numbers selected (click, box or lasso) in the compare chart on the last run."""
    state = st.session_state.get(key)
    points = state.selection.points if state is not None and "selection" in state else []
    chosen = []
    for point in points:
        data = point.get("customdata")
        if data is not None:
            chosen.append(int(data[0] if isinstance(data, list) else data))
    return sorted(set(chosen))


def _compare_view(frame: pd.DataFrame, projection: Projection, report: Trust, colouring: Colouring, params: dict, settings: Settings, model: LoadedModel) -> None:
    chosen = configuration_b(settings, prefix="map", default_model=settings.model_id,
                             default_pooling=settings.pooling, default_layer="middle",
                             layer_help="0 is the embedding layer. Every layer of a model comes from one pass, "
                                        "so changing only the layer is quick.")
    if chosen is None:
        return
    b_settings, b_model = chosen
    b_vectors = embed_corpus(b_model, frame["text"].tolist(), b_settings)
    b_projection = _projected(b_vectors, {**params, "method": projection.method})
    if b_projection is None:
        return
    b_report = _trust(b_vectors, b_projection.coords, params["seed"])
    slots = st.columns(4)
    _trust_metrics(report, slots[:2], " (A)")
    _trust_metrics(b_report, slots[2:], " (B)")
    titles = (f"A: {_describe(settings, model)}", f"B: {_describe(b_settings, b_model)}")
    highlight = _selected("map_compare_chart")
    st.plotly_chart(compare_figure(projection.coords, b_projection.coords, frame["text"].tolist(), colouring,
                                   titles=titles, highlight=highlight),
                    key="map_compare_chart", on_select="rerun", selection_mode=("points", "box", "lasso"))
    st.caption(f"The same {len(frame):,} texts mapped with {projection.method} under two configurations; point #i "
               "is the same text in both (hover shows the number). Click, box- or lasso-select points on either "
               "side to ring the same texts on both.")
    points = pd.DataFrame({"#": np.arange(len(frame)), "text": frame["text"], "A x": projection.coords[:, 0],
                           "A y": projection.coords[:, 1], "B x": b_projection.coords[:, 0],
                           "B y": b_projection.coords[:, 1], colouring.title: colouring.values})
    csv_download(points, "map-compare.csv", index=False, key="map_compare_csv")


def _query_table(table: pd.DataFrame, projection: Projection) -> None:
    st.subheader("The query's nearest texts")
    st.dataframe(table, hide_index=True, column_config={"cosine": st.column_config.NumberColumn(format="%.3f")})
    st.caption("Nearest by cosine in the full space, best first. 'Rank on the map' counts from the point nearest "
               "to the star: where it is much larger than the full-space rank, the map misleads. "
               + PLACEMENT[projection.method])
    csv_download(table, "map-query-neighbours.csv", index=False, key="map_query_csv")


main()
