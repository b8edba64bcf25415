"""The Embedding map's parts: which corpus (with the labels it brings), which projection (falling back to PCA
with the reason), how to colour the points, and the trust numbers."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.neighbours import align
from core.analysis.map.projection import MAX_POINTS, METHODS, Projection, ProjectionParams, Trust
from core.data.corpus import CorpusError, labelled_corpus, lines
from core.data.datasets import Dataset, DatasetError, DatasetInfo, dataset_sample
from core.data.stsb import MAP_SAMPLE_SIZE, stsb_genres, stsb_sample
from core.data.uploads import column, text_columns
from core.data.vectors import FILES_HINT, VECTOR_FILE_TYPES, read_vector_files
from core.jobs import Job
from core.plots.map import NOISE, Colouring, categories, fits_legend, numbers
from ui.components.similarity_texts import similarity_texts
from ui.components.upload import uploaded_corpus
from ui.state.persist import kept, set_kept
from ui.work.background import aligned_job, density_job, job_status, projection_job
from ui.work.cache import clusters_of, dataset_of, listed_datasets_now, projection_of

SOURCES = {"stsb": "STS-B sentences (built in)", "upload": "Upload a file",
           "similarity": "Texts of the Similarity page", "vectors": "A vectors file (no model needed)"}
NO_LABEL = "(none)"
CLUSTERS, LENGTH, OVERLAP = "k-means clusters", "text length", "neighbour overlap"
DENSITY = "HDBSCAN clusters of the map"
DEFAULT_QUERY = "A man is playing a guitar on stage."
FILE_TEXT, TYPED = "A text of the file", "Typed, embedded by the sidebar's model"
COLOURINGS = (CLUSTERS, DENSITY, LENGTH, OVERLAP)
ALIGNMENT = {"PCA": "B rotated, reflected and scaled onto A (Procrustes)",
             "UMAP": "laid out together by umap-learn's AlignedUMAP, which keeps each text near its place in the "
                     "other map"}
READ_FILES = "map_read_vector_files"  # session key: the uploaded files' ids and the corpus read from them
LISTED_ROWS = 2_000  # a vectors file with more texts takes its query by number
DATASET_POINTS = 20_000  # a dataset's default sample on the map (t-SNE of 20,000 points: under a minute)


def _colour_by_label() -> None:
    """Picking a label column means: colour by it."""
    label = st.session_state.map_label_col
    if label != NO_LABEL:
        set_kept("map_colour", label)


@dataclass(frozen=True)
class MapCorpus:
    """The points' table (`text` and any label columns), the colourings it brings (shown name -> column), and the
    vectors when they came with the file (then no model embeds them)."""

    frame: pd.DataFrame
    colourings: dict[str, str]
    vectors: np.ndarray | None = None
    files: str = ""  # the vectors' file names, for the map's title
    dataset: Dataset | None = None  # the whole dataset the points are a sample of


def _vector_corpus() -> MapCorpus | None:
    files = st.file_uploader("Vector files", type=list(VECTOR_FILE_TYPES), accept_multiple_files=True,
                             key="map_vector_files", help=FILES_HINT)
    if not files:
        st.session_state.pop(READ_FILES, None)
        st.info(FILES_HINT)
        return None
    ids = tuple(file.file_id for file in files)
    if st.session_state.get(READ_FILES, (None,))[0] != ids:  # read once per upload, not on every rerun
        st.session_state[READ_FILES] = ids, read_vector_files([(file.name, file.getvalue()) for file in files])
    found = st.session_state[READ_FILES][1]
    frame = pd.concat([pd.DataFrame({"text": found.texts}), found.metadata.reset_index(drop=True)], axis=1)
    st.caption(f"{len(frame):,} vectors of {found.vectors.shape[1]} dimensions, as the file gives them: no model "
               "embeds these texts.")
    return MapCorpus(frame, {str(c): str(c) for c in found.metadata.columns}, found.vectors,
                     " + ".join(file.name for file in files))


def _dataset_corpus(info: DatasetInfo) -> MapCorpus:
    try:
        dataset = dataset_of(str(info.folder), info.version)
    except (DatasetError, OSError) as err:
        raise CorpusError(str(err)) from err
    most = min(MAX_POINTS, info.rows)
    size = int(kept(st.number_input, "Texts on the map", key="map_dataset_size", url=True,
                    default=min(DATASET_POINTS, most), min_value=min(2, most), max_value=most, step=1000))
    _, frame, vectors = dataset_sample(dataset, size)
    shown = (f"A seeded random sample of {len(frame):,} of the dataset's {info.rows:,} texts (seed 0)"
             if len(frame) < info.rows else f"All {info.rows:,} texts of the dataset")
    st.caption(f"{shown}, with their stored vectors; the query's nearest texts are searched among all of them below "
               "the map.")
    return MapCorpus(frame, {str(c): str(c) for c in frame.columns[1:]}, vectors, info.name, dataset)


def map_corpus() -> MapCorpus | None:
    """The corpus to map; None until it is ready. Raises CorpusError for a file that cannot be read."""
    datasets = {f"dataset:{info.name}": info for info in listed_datasets_now()[0]}
    source = kept(st.radio, "Corpus", key="map_source", url=True, default="stsb", must_be_option=True,
                  options=[*SOURCES, *datasets],
                  format_func=lambda name: SOURCES.get(name) or f"Dataset: {datasets[name].label}")
    if source in datasets:
        return _dataset_corpus(datasets[source])
    if source == "stsb":
        total = len(stsb_genres())
        size = kept(st.number_input, "Sentences in the sample", key="map_size", url=True, default=MAP_SAMPLE_SIZE,
                    min_value=2, max_value=total, step=500,
                    help=f"A seeded random sample of the {total:,} distinct STS-B sentences (news, image captions, "
                         "forums).")
        return MapCorpus(stsb_sample(int(size)), {"genre": "genre"})
    if source == "similarity":
        st.caption("The texts typed on the Similarity page (its example set until you edit it there).")
        return MapCorpus(labelled_corpus(lines(similarity_texts())), {})
    if source == "vectors":
        return _vector_corpus()
    uploaded = uploaded_corpus(file_key="map_upload", column_key="map_text_col",
                               help=".txt: one text a line; .csv / .jsonl: pick the text column and, if you like, "
                                    "a label column to colour by.")
    if uploaded is None:
        return None
    table, text_col = uploaded
    others = [c for c in text_columns(table) if c != text_col]
    label_col = st.selectbox("Label column (colour)", [NO_LABEL, *others], key="map_label_col",
                             on_change=_colour_by_label) if others else NO_LABEL
    labels = None if label_col == NO_LABEL else column(table, label_col)
    frame = labelled_corpus(column(table, text_col), labels)
    dropped = len(table) - len(frame)
    if dropped:
        st.caption(f"{dropped:,} empty or repeated row(s) were dropped: each text is one point.")
    return MapCorpus(frame, {label_col: "label"} if labels is not None else {})


def projection_inputs() -> ProjectionParams:
    method = kept(st.radio, "Projection", key="map_method", url=True, default="PCA", options=list(METHODS),
                  horizontal=True,
                  help="PCA: linear, instant, keeps large distances. t-SNE and UMAP: non-linear, keep local "
                       "neighbourhoods, take longer (UMAP's first run compiles for about a minute).")
    perplexity = kept(st.number_input, "Perplexity (t-SNE)", key="map_perplexity", url=True, default=30.0,
                      min_value=1.0,
                      max_value=100.0, step=5.0, disabled=method != "t-SNE",
                      help="About how many neighbours each point attends to; must be below the point count.")
    left, right = st.columns(2)
    neighbours = kept(left.number_input, "Neighbours (UMAP)", key="map_neighbours", url=True, default=15, min_value=2,
                      max_value=200, step=5, disabled=method != "UMAP", help="Larger keeps more global structure.")
    min_dist = kept(right.number_input, "min_dist (UMAP)", key="map_min_dist", url=True, default=0.1, min_value=0.0,
                    max_value=1.0, step=0.05, disabled=method != "UMAP", help="How tightly points may pack.")
    seed = kept(st.number_input, "Random seed", key="map_seed", url=True, default=0, min_value=0, max_value=2**31 - 1,
                help="Fixes t-SNE, UMAP, k-means and any sampling, so the same settings give the same map.")
    return ProjectionParams(method, float(perplexity), int(neighbours), float(min_dist), int(seed))


def projected(vectors: np.ndarray, params: ProjectionParams, *, meanwhile: bool = True) -> Projection | None:
    """The chosen projection. A t-SNE or UMAP of many points runs in the server's queue, PCA shown `meanwhile`
    (else nothing); when it cannot run on these points, say why and fall back to PCA."""
    method = params.method
    pca = replace(params, method="PCA").options()
    try:
        with st.spinner(f"Running {method} on {len(vectors):,} points…"):
            ready = projection_job(vectors, params)
        if not isinstance(ready, Job):
            return ready
        job_status(ready)
        if not meanwhile:
            return None
        st.caption(f"PCA meanwhile: the {method} map takes its place when it is done.")
        return projection_of(vectors, **pca)
    except ValueError as err:
        if method == "PCA":
            st.error(str(err))
            return None
        message = str(err)
    try:
        fallback = projection_of(vectors, **pca)
    except ValueError as err:
        st.error(f"{message} PCA cannot run either: {err}")
        return None
    st.warning(f"{message} Showing PCA instead.")
    return fallback


def compared(space: np.ndarray, b_space: np.ndarray, projection: Projection,
             params: ProjectionParams) -> tuple[Projection, np.ndarray] | None:
    """A's map and B's coordinates beside it: for UMAP both laid out together by AlignedUMAP (a queued job), else B
    projected alone and Procrustes-aligned onto A. None while B's map is not ready."""
    if projection.method == "UMAP":
        pair = aligned_job(space, b_space, params)
        if isinstance(pair, Job):
            job_status(pair)
            return None
        return pair[0], pair[1].coords
    b_projection = projected(b_space, replace(params, method=projection.method), meanwhile=False)
    return None if b_projection is None else (projection, align(projection.coords, b_projection.coords))


def colouring_of(choice: str, frame: pd.DataFrame, extra: dict[str, str], vectors: np.ndarray, coords: np.ndarray,
                 chosen: dict, seed: int, overlap: np.ndarray) -> Colouring:
    if choice in extra:
        labels = frame[extra[choice]].tolist()
        if fits_legend(labels):
            return categories(labels, title=choice)
        name = choice.replace("`", "")  # the user's column name, shown as code, never as markdown
        st.info(f"The column `{name}` has {len(set(labels)):,} distinct values, too many to tell apart by "
                f"colour; the map is coloured by {chosen['k']} k-means clusters instead.")
    if choice == LENGTH:
        return numbers(frame["text"].str.len(), title="characters")
    if choice == OVERLAP:
        return numbers(overlap, title="overlap")
    if choice == DENSITY:
        try:
            found = density_job(coords, chosen["min_size"])
        except ValueError as err:
            st.warning(f"{err} Coloured by k-means clusters meanwhile.")
            found = None
        if isinstance(found, Job):
            job_status(found)
            st.caption("Coloured by k-means clusters until HDBSCAN is done.")
        elif found is not None:
            return categories([NOISE if label < 0 else str(label) for label in found], title="HDBSCAN cluster")
    return categories(clusters_of(vectors, chosen["k"], seed), title="cluster")


def trust_metrics(report: Trust, slots: list, label: str = "") -> None:
    slots[0].metric(f"Neighbours kept{label}", f"{report.mean_overlap:.0%}",
                    help=f"On average, this share of each point's {report.k} nearest neighbours in the full space "
                         f"(cosine) are also among its {report.k} nearest on the map"
                         + (f", measured on a seeded sample of {report.points:,} points." if report.sampled else "."))
    slots[1].metric(f"Trustworthiness{label}",
                    "—" if report.trustworthiness is None else f"{report.trustworthiness:.3f}",
                    help="scikit-learn's trustworthiness (1 = no point on the map has neighbours that are far in "
                         f"the full space), over {report.points:,} points.")


def map_inputs(corpus: MapCorpus, count: int, dims: int) -> dict:
    """The colouring, query, highlight and compare inputs. A vectors file's query is one of its own texts, or a
    typed one when its vectors have the sidebar model's `dims`."""
    options = [*corpus.colourings, *COLOURINGS]
    found = {"choice": kept(st.selectbox, "Colour by", key="map_colour", url=True, default=options[0],
                            options=options, must_be_option=True,
                            help="A label of the data, k-means clusters of the full vectors, HDBSCAN clusters of "
                                 "the map's dense areas, the text's length in characters, or how many of a point's "
                                 "neighbours the map kept.")}
    left, right = st.columns(2)
    found["k"] = kept(left.number_input, "Clusters (k)", key="map_k", url=True, default=8, min_value=2, max_value=40,
                      help="How many k-means clusters.")
    found["min_size"] = kept(right.number_input, "Smallest", key="map_min_size", url=True, default=25,
                             min_value=2, max_value=10_000, step=5, disabled=found["choice"] != DENSITY,
                             help="The fewest points an HDBSCAN cluster may have: HDBSCAN finds the dense areas of "
                                  "the map, and points in no cluster are grey noise.")
    typed, help_text = corpus.vectors is None, ("Embedded with the sidebar's settings and drawn as a star, with "
                                                "lines to its nearest texts in the full space.")
    if corpus.vectors is not None:
        fits = corpus.vectors.shape[1] == dims
        typed = fits and kept(st.radio, "Query", key="map_query_kind", url=True, default=FILE_TEXT,
                              options=[FILE_TEXT, TYPED], horizontal=True) == TYPED
        if not fits:
            st.caption(f"The file's vectors have {corpus.vectors.shape[1]:,} dimensions and the sidebar's model "
                       f"gives {dims:,}, so a typed query cannot be placed among them: the query is a text of the "
                       "file.")
        help_text += (" It belongs among the file's vectors only if they came from the same model and settings "
                      "(a file exported from this page did).")
    if typed:
        found["query"] = kept(st.text_input, "Query", key="map_query", url=True, default=DEFAULT_QUERY,
                              help=help_text).strip()
    elif count <= LISTED_ROWS:
        found["row"] = st.selectbox("Query: a text of the file", range(count), key="map_query_row",
                                    format_func=lambda i: f"#{i} {corpus.frame['text'].iloc[i][:60]}")
    else:  # a list of every text would be megabytes sent on each rerun
        found["row"] = int(st.number_input("Query: the number of a text of the file", min_value=0,
                                           max_value=count - 1, key="map_query_number",
                                           help="Hover a point on the map to see its number."))
        st.caption(f"#{found['row']}: {corpus.frame['text'].iloc[found['row']][:120]}")
    found["top"] = kept(st.slider, "Neighbours of the query", key="map_top", url=True, default=5, min_value=1,
                        max_value=20)
    found["find"] = kept(st.text_input, "Highlight texts containing", key="map_find", url=True, default="",
                         help="The other points turn grey.")
    found["regex"] = kept(st.checkbox, "Read it as a regular expression", key="map_regex", url=True, default=False)
    found["compare"] = corpus.vectors is None and kept(
        st.toggle, "Compare with configuration B", key="map_compare", url=True, default=False,
        help="Map the same texts under a second model, pooling or layer, side by side.")
    return found
