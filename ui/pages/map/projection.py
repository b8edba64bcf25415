"""What the map draws from the inputs: the projection (in the queue when slow, PCA with the reason when it
cannot run), B's map beside A's, and the points' colouring."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.neighbours import align
from core.analysis.map.projection import (
    Projection,
    ProjectionParams,
)
from core.jobs import Job
from core.maps.build import colour
from core.plots.map import (
    Colouring,
    density_categories,
    numbers,
)
from ui.pages.map.direction import direction_colouring
from ui.pages.map.inputs import DENSITY, DIRECTION, LENGTH, OVERLAP, MapInputs
from ui.pages.map.tags import column_labels
from ui.work.background import aligned_job, density_job, job_status, projection_job, waiting
from ui.work.cache import clusters_of, projection_of

ALIGNMENT = {"PCA": "B rotated, reflected and scaled onto A (Procrustes)",
             "UMAP": "laid out together by umap-learn's AlignedUMAP, which keeps each text near its place in the "
                     "other map"}


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
        if waiting(pair):
            return None
        return pair[0], pair[1].coords
    b_projection = projected(b_space, replace(params, method=projection.method), meanwhile=False)
    return None if b_projection is None else (projection, align(projection.coords, b_projection.coords))


def colouring_of(chosen: MapInputs, frame: pd.DataFrame, extra: dict[str, str], vectors: np.ndarray,
                 coords: np.ndarray, seed: int, overlap: np.ndarray) -> Colouring:
    choice = chosen.colour
    if choice in extra:
        coloured = colour(column_labels(frame, extra[choice]), vectors, name=choice, k=chosen.k, seed=seed,
                          clusters=clusters_of)
        if coloured.note:  # the user's column name is shown as code, never as markdown
            st.info(coloured.note)
        return coloured.colouring
    if choice == DIRECTION:
        found = direction_colouring(frame, extra, vectors, seed)
        if found is not None:
            return found
    if choice == LENGTH:
        return numbers(frame["text"].str.len(), title="characters")
    if choice == OVERLAP:
        return numbers(overlap, title="overlap")
    if choice == DENSITY:
        try:
            found = density_job(coords, chosen.min_size)
        except ValueError as err:
            st.warning(f"{err} Coloured by k-means clusters meanwhile.")
            found = None
        if waiting(found):
            st.caption("Coloured by k-means clusters until HDBSCAN is done.")
        elif found is not None:
            return density_categories(found, title="HDBSCAN cluster")
    return colour(None, vectors, k=chosen.k, seed=seed, clusters=clusters_of).colouring
