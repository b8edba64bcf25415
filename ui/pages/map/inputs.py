"""The map's controls: the projection and its parameters; the colouring, query, highlight and compare inputs."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.analysis.map.projection import (
    DEFAULTS,
    METHODS,
    ProjectionParams,
)
from ui.pages.map.corpus import MapCorpus
from ui.state.persist import kept

CLUSTERS, LENGTH, OVERLAP = "k-means clusters", "text length", "neighbour overlap"
DENSITY = "HDBSCAN clusters of the map"
DIRECTION = "a direction between two labels"
COLOURINGS = (CLUSTERS, DENSITY, LENGTH, OVERLAP, DIRECTION)
DEFAULT_QUERY = "A man is playing a guitar on stage."
FILE_TEXT, TYPED = "A text of the file", "Typed, embedded by the sidebar's model"
LISTED_ROWS = 2_000  # a vectors file with more texts takes its query by number


def projection_inputs() -> ProjectionParams:
    method = kept(st.radio, "Projection", key="map_method", url=True, default=DEFAULTS.method, options=list(METHODS),
                  horizontal=True,
                  help="PCA: linear, instant, keeps large distances. t-SNE and UMAP: non-linear, keep local "
                       "neighbourhoods, take longer (UMAP's first run compiles for about a minute).")
    perplexity = kept(st.number_input, "Perplexity (t-SNE)", key="map_perplexity", url=True,
                      default=DEFAULTS.perplexity, min_value=1.0, max_value=100.0, step=5.0, disabled=method != "t-SNE",
                      help="About how many neighbours each point attends to; must be below the point count.")
    left, right = st.columns(2)
    neighbours = kept(left.number_input, "Neighbours (UMAP)", key="map_neighbours", url=True,
                      default=DEFAULTS.neighbours, min_value=2, max_value=200, step=5, disabled=method != "UMAP",
                      help="Larger keeps more global structure.")
    min_dist = kept(right.number_input, "min_dist (UMAP)", key="map_min_dist", url=True, default=DEFAULTS.min_dist,
                    min_value=0.0, max_value=1.0, step=0.05, disabled=method != "UMAP",
                    help="How tightly points may pack.")
    seed = kept(st.number_input, "Random seed", key="map_seed", url=True, default=DEFAULTS.seed, min_value=0,
                max_value=2**31 - 1,
                help="Fixes t-SNE, UMAP, k-means and any sampling, so the same settings give the same map.")
    return ProjectionParams(method, float(perplexity), int(neighbours), float(min_dist), int(seed))


@dataclass(frozen=True)
class MapInputs:
    """What the map is asked for besides its projection. The query is one of the corpus's own texts (`row`) or,
    when `row` is None, a typed one (`query`, "" for none)."""

    colour: str
    k: int  # k-means clusters, at most the point count
    min_size: int  # HDBSCAN's smallest cluster
    top: int  # neighbours of the query
    find: str
    regex: bool
    compare: bool
    query: str = ""
    row: int | None = None


def map_inputs(corpus: MapCorpus, count: int, dims: int) -> MapInputs:
    """The colouring, query, highlight and compare inputs. A vectors file's query is one of its own texts, or a
    typed one when its vectors have the sidebar model's `dims`."""
    options = [*corpus.colourings, *COLOURINGS]
    colour = kept(st.selectbox, "Colour by", key="map_colour", url=True, default=options[0], options=options,
                  must_be_option=True,
                  help="A label of the data or a tag, k-means clusters of the full vectors, HDBSCAN clusters of the "
                       "map's dense areas, the text's length in characters, how many of a point's neighbours the map "
                       "kept, or each text's score along the direction from one label to another.")
    left, right = st.columns(2)
    k = kept(left.number_input, "Clusters (k)", key="map_k", url=True, default=8, min_value=2, max_value=40,
             help="How many k-means clusters.")
    min_size = kept(right.number_input, "Smallest", key="map_min_size", url=True, default=25, min_value=2,
                    max_value=10_000, step=5, disabled=colour != DENSITY,
                    help="The fewest points an HDBSCAN cluster may have: HDBSCAN finds the dense areas of the map, "
                         "and points in no cluster are grey noise.")
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
    query, row = "", None
    if typed:
        query = kept(st.text_input, "Query", key="map_query", url=True, default=DEFAULT_QUERY, help=help_text).strip()
    elif count <= LISTED_ROWS:
        row = st.selectbox("Query: a text of the file", range(count), key="map_query_row",
                           format_func=lambda i: f"#{i} {corpus.frame['text'].iloc[i][:60]}")
    else:  # a list of every text would be megabytes sent on each rerun
        row = int(st.number_input("Query: the number of a text of the file", min_value=0, max_value=count - 1,
                                  key="map_query_number", help="Hover a point on the map to see its number."))
        st.caption(f"#{row}: {corpus.frame['text'].iloc[row][:120]}")
    top = kept(st.slider, "Neighbours of the query", key="map_top", url=True, default=5, min_value=1, max_value=20)
    find = kept(st.text_input, "Highlight texts containing", key="map_find", url=True, default="",
                help="The other points turn grey.")
    regex = kept(st.checkbox, "Read it as a regular expression", key="map_regex", url=True, default=False)
    compare = corpus.vectors is None and kept(
        st.toggle, "Compare with configuration B", key="map_compare", url=True, default=False,
        help="Map the same texts under a second model, pooling or layer, side by side.")
    return MapInputs(colour, min(int(k), count), int(min_size), min(int(top), count), find, bool(regex),
                     bool(compare), query, row)
