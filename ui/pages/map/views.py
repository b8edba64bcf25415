"""The map drawn: one configuration with its trust figures, or A and B side by side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.clusters import spherize
from core.analysis.map.labels import MapLabel
from core.analysis.map.projection import Projection, ProjectionParams, Trust, how_placed
from core.data.labels import Tags
from core.data.rows import ROW_ID
from core.jobs import Job
from core.maps.build import query_mark
from core.maps.html import file_rows
from core.maps.space import MapSpace, query_point
from core.models.loading import LoadedModel
from core.plots.map import (
    Colouring,
    QueryMark,
    compare_points,
    numbers,
    overlap_counts,
    points_table,
    trust_figure,
)
from core.plots.map_canvas import canvas_view, hover_line
from core.settings import Settings
from ui.components.agreement import agreement_metrics, layer_cka_panel
from ui.components.compare import configuration_b, describe
from ui.components.downloads import csv_download, map_file_download
from ui.components.map_canvas import map_canvas
from ui.pages.map.projection import ALIGNMENT, compared
from ui.pages.map.tools import movers_panel, remember_selection, selected_points, selection_panel
from ui.state.persist import kept
from ui.work.background import agreement_job, job_status, map_space_job, waiting
from ui.work.cache import trust_of


def single_view(frame: pd.DataFrame, space: np.ndarray, projection: Projection, report: Trust,
                colouring: Colouring, mark: QueryMark | None, title: str, highlight: np.ndarray | None,
                labels: list[MapLabel], tag: Callable[[list[str]], None], tags: Tags) -> None:
    """The map with its facts, trust and selection; `tag(row_ids)` offers to tag the selected rows, which carry
    `tags`."""
    texts = frame["text"].tolist()
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
    canvas = canvas_view(projection.coords, colouring, label=title, highlight=highlight, query=mark, labels=labels)
    map_canvas(canvas, key="map_canvas", hover_text=lambda row: hover_line(row, texts[row], colouring),
               on_selection=remember_selection(frame[ROW_ID].tolist()), selected=selected_points(frame))
    st.caption(f"{title}. Each point is one text, coloured by {colouring.title}; hover for its text. Drag to pan, "
               "scroll to zoom (finer cluster labels appear as you zoom in), click a point or use Box or Lasso to "
               "select; the legend hides and shows categories. Only closeness means something: the axes have no "
               f"units, and far-apart clusters may not be far apart in the full space. {how_placed(projection)}"
               + (" The star is the query, with lines to its nearest texts in the full space." if mark else "")
               + (f" {canvas.note}" if canvas.note else ""))
    with st.container(horizontal=True):
        csv_download(points_table(frame, projection.coords, colouring, report.overlap), "map-points.csv",
                     index=False, key="map_points_csv")
        map_file_download(canvas, lambda: file_rows(texts, colouring, frame[ROW_ID].tolist()), tags)
    trust_col, selection_col = st.columns([1, 2])
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
    with selection_col:
        selection_panel(frame, space, projection.coords, tag)


def trust_metrics(report: Trust, slots: list, label: str = "") -> None:
    slots[0].metric(f"Neighbours kept{label}", f"{report.mean_overlap:.0%}",
                    help=f"On average, this share of each point's {report.k} nearest neighbours in the full space "
                         f"(cosine) are also among its {report.k} nearest on the map"
                         + (f", measured on a seeded sample of {report.points:,} points." if report.sampled else "."))
    slots[1].metric(f"Trustworthiness{label}",
                    "—" if report.trustworthiness is None else f"{report.trustworthiness:.3f}",
                    help="scikit-learn's trustworthiness (1 = no point on the map has neighbours that are far in "
                         f"the full space), over {report.points:,} points.")


def compare_view(frame: pd.DataFrame, a_stored: MapSpace, space: np.ndarray, projection: Projection,
                 colouring: Colouring, params: ProjectionParams, a: tuple[Settings, LoadedModel], query: str, top: int,
                 centred: bool, highlight: np.ndarray | None, tags: Tags) -> bool:
    """A and B side by side, each map downloadable as its own HTML file with the rows' `tags` (or B's progress while
    its corpus embeds); False, drawing nothing of A, when B is still to download or cannot load."""
    texts = frame["text"].tolist()
    chosen = configuration_b(a[0], prefix="map", default_model=a[0].model_id, default_pooling=a[0].pooling,
                             default_layer="middle",
                             layer_help="0 is the embedding layer. Every layer of a model comes from one pass, "
                                        "so changing only the layer is quick.")
    if chosen is None:
        return False
    b_stored = map_space_job(chosen[1], texts, chosen[0])
    if waiting(b_stored):
        return True
    a_raw, raw = a_stored.vectors, b_stored.vectors
    b_space = spherize(raw) if centred else raw
    pair = compared(space, b_space, projection, params)
    if pair is None:
        return True
    projection, b_coords = pair
    report, b_report = (trust_of(points, coords, params.seed) for points, coords in ((space, projection.coords),
                                                                                         (b_space, b_coords)))
    slots = st.columns(4)
    trust_metrics(report, slots[:2], " (A)")
    trust_metrics(b_report, slots[2:], " (B)")
    found = agreement_job(a_raw, raw, params.seed)  # the configurations' own vectors, as `core compare` reads them
    if isinstance(found, Job):
        job_status(found)
    else:
        agreement_metrics(found)
        layer_cka_panel(texts, a, chosen, seed=params.seed, key="map")
        if kept(st.toggle, "Colour by each text's neighbours kept in B", key="map_compare_kept", url=True,
                default=False, help="The share of each text's nearest other texts in A that are also among its "
                                    "nearest in B (full spaces, cosine): dark where B moved the text elsewhere."):
            colouring = numbers(found.overlap.everywhere(),
                                title=f"share of its {found.overlap.k} neighbours kept in B")
    marks = []
    # B's map is its own projection aligned onto A's, so A's PCA axes cannot place B's query (B's vectors may not even
    # be as wide): B's star goes to the mean position of its nearest texts in B's space, as t-SNE and UMAP place one
    b_projection = replace(projection, coords=b_coords, mean=None, components=None)
    for (settings, model), stored, points, placed_on in ((a, a_stored, space, projection),
                                                         (chosen, b_stored, b_space, b_projection)):
        vector = query_point(model, query, settings, stored,
                             centre=np.mean(stored.vectors, axis=0) if centred else None) if query else None
        marks.append(None if vector is None else query_mark(query, vector, points, placed_on, texts, top=top))
    columns = st.columns(2)
    for side, column, coords, mark, name in (("a", columns[0], projection.coords, marks[0], describe(*a)),
                                             ("b", columns[1], b_coords, marks[1], describe(*chosen))):
        with column:
            st.markdown(f"**{side.upper()}: {name}**")
            canvas = canvas_view(coords, colouring, label=f"{side.upper()}: {name}", query=mark[0] if mark else None,
                                 highlight=highlight, height=560, link="map_compare")
            map_canvas(canvas, key=f"map_compare_{side}", hover_text=lambda row: hover_line(row, texts[row],
                                                                                          colouring),
                       on_selection=remember_selection(frame[ROW_ID].tolist()), selected=selected_points(frame))
            map_file_download(canvas, lambda: file_rows(texts, colouring, frame[ROW_ID].tolist()), tags,
                              label=f"Download {side.upper()} as HTML", file_name=f"map-{side}.html",
                              key=f"map_html_{side}")
    alignment = ALIGNMENT.get(projection.method, ALIGNMENT["PCA"])
    st.caption(f"The same {len(texts):,} texts mapped with {projection.method} under two configurations, "
               f"{alignment} so that movement means something; point #i is the same text in both (hover shows the "
               "number). The two maps pan and zoom together, and points selected (click, Box or Lasso) on either "
               "side are selected on both: see where a region of A lands in B."
               + (" The star is the query, placed by each configuration." if query else "")
               + (f" {canvas.note}" if canvas.note else ""))
    csv_download(compare_points(frame, projection.coords, b_coords, colouring), "map-compare.csv",
                 index=False, key="map_compare_csv")
    if not isinstance(found, Job):
        movers_panel(texts, found.overlap, projection.coords, b_coords, alignment)
    return True
