"""The Similarity page's parts: how matrices are measured and drawn, one configuration's matrix (with what was
cut said once), the heatmap (clickable for the explanation below it) and the untrained baseline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import streamlit as st

from core.analysis.similarity import Metric, TextSimilarity, matrix_frame
from core.kinds import kind_of
from core.models.catalog import UNTRAINED_ID
from core.models.loading import LoadedModel
from core.plots.heatmap import similarity_heatmap
from core.settings import Settings
from ui.components.downloads import csv_download
from ui.components.explain import cell_picker
from ui.work.cache import cached_model
from ui.work.progress import progress_bar


class Look(NamedTuple):
    """How the matrices are measured and drawn."""

    metric: Metric
    fixed: bool
    reorder: bool


CAPTIONS = {
    "cosine": "Each cell is the cosine similarity of two texts' vectors (1 = same direction, 0 = unrelated); "
              "red is close, blue is far. Hover a cell for both texts; labels are numbered by input line.",
    "dot": "Each cell is the dot product of two texts' vectors (cosine × both lengths, so long vectors score "
           "higher); red is high. Hover a cell for both texts; labels are numbered by input line.",
    "sparse": "Each cell is the model's score of two texts: the sum, over the vocabulary entries both vectors hold, of "
              "their weights multiplied (red is high, and a text scores highest with itself). Click a cell to see "
              "which terms make up its score; labels are numbered by input line.",
    "euclidean": "Each cell is the Euclidean distance between two texts' vectors (0 = identical); yellow is "
                 "close, dark purple is far. Hover a cell for both texts; labels are numbered by input line.",
}


def compared(model: LoadedModel, texts: Sequence[str], settings: Settings, look: Look, *,
              say_cuts: bool = True) -> TextSimilarity:
    """The texts compared under one configuration (with a progress bar; a sparse model by its own similarity), and
    what was cut, said once."""
    with progress_bar(f"Encoding with {model.model_id}") as progress:
        result = kind_of(model).similarity(model, texts, settings, metric=look.metric, reorder=look.reorder,
                                           progress=progress).found
    if not say_cuts:
        return result
    for notice in result.embeddings.notices:
        st.warning(notice)
    if result.embeddings.truncated:
        named = ", ".join(f"{i + 1} (“{texts[i][:30]}…”)" for i in result.embeddings.truncated[:5])
        st.warning(f"Cut by {model.model_id}: text {named}. Only their first tokens count; split long texts "
                   "into shorter ones to compare all of them.")
    return result


def value_text(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def mean_label(metric: Metric) -> str:
    return "Mean off-diagonal distance" if metric == "euclidean" else f"Mean off-diagonal {metric}"


def heatmap(matrix: np.ndarray, texts: Sequence[str], look: Look, order: list[int] | None, key: str, *,
             title: str = "", height: int | None = None, compact: bool = False, columns: int = 1,
             clickable: bool = False, value_name: str | None = None) -> None:
    figure = similarity_heatmap(matrix, texts, metric=look.metric, fixed_range=look.fixed, order=order, title=title,
                                height=height, compact=compact, columns=columns, clickable=clickable,
                                value_name=value_name)
    if clickable:
        st.plotly_chart(figure, key=key, on_select=cell_picker(key, texts), selection_mode="points")
    else:
        st.plotly_chart(figure, key=key)


def baseline(texts: Sequence[str], settings: Settings, model: LoadedModel, look: Look,
              order: list[int] | None) -> None:
    """The same texts under untrained BERT, so the reader sees what "high" means without training."""
    if not kind_of(model).applies.compare:
        st.caption("The untrained baseline compares dense vectors, so it is not shown beside a sparse model; set the "
                   "scores beside BM25's on Retrieval instead.")
        return
    if model.entry.untrained:
        st.caption("The sidebar model is the untrained baseline itself: random weights, no training.")
        return
    untrained = cached_model(UNTRAINED_ID, settings.device)
    layer = settings.layer if settings.layer is None or settings.layer <= untrained.num_layers else None
    base = compared(untrained, texts, settings.with_(model_id=UNTRAINED_ID, layer=layer, truncate_dim=None), look,
                    say_cuts=False)
    st.metric("Same texts, untrained BERT", value_text(base.mean), help=mean_label(look.metric) + " under random "
                                                                           "weights.")
    heatmap(base.matrix, texts, look, order, "sim_untrained_heatmap", title="untrained BERT", height=320,
             compact=True, columns=4)
    st.caption("The same texts under random weights: untrained encoders find almost everything similar, so a "
               "pair only counts as close when it stands out from this model's own mean.")
    csv_download(matrix_frame(base.matrix, texts, order), "similarity-untrained.csv", key="sim_untrained_csv")
