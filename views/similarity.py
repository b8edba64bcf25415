"""Similarity page: a text × text heatmap of the sidebar's configuration, an untrained baseline, compare mode."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import streamlit as st

from core.analysis.similarity import (METRICS, Metric, TextSimilarity, duplicate_groups, limit_problems, matrix_frame,
                                      moved_pairs, text_similarity)
from core.data.corpus import lines
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.deployment import load_config
from core.models.catalog import DEFAULT_MODEL_ID, L3_ID, UNTRAINED_ID
from core.models.loading import LoadedModel
from core.plots.heatmap import difference_heatmap, similarity_heatmap
from core.settings import Settings, layer_used
from ui import similarity_texts
from ui.compare import configuration_b
from ui.downloads import csv_download
from ui.cache import available_ids, cached_model
from ui.persist import kept, set_kept
from ui.progress import progress_bar
from ui.sidebar import active

RANGES = {"fixed": "fixed [−1, 1]", "fitted": "fitted to the data"}


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
    "euclidean": "Each cell is the Euclidean distance between two texts' vectors (0 = identical); yellow is "
                 "close, dark purple is far. Hover a cell for both texts; labels are numbered by input line.",
}


def _load_example() -> None:
    set_kept(similarity_texts.KEY, "\n".join(EXAMPLES[st.session_state.sim_example]))


def _describe(settings: Settings, model: LoadedModel) -> str:
    layer = layer_used(settings.layer, model.num_layers)
    last = " (last)" if layer == model.num_layers else ""
    return f"{model.model_id} · {settings.pooling} pooling · layer {layer}{last}"


def _compared(model: LoadedModel, texts: Sequence[str], settings: Settings, look: Look, *,
              say_cuts: bool = True) -> TextSimilarity:
    """The texts compared under one configuration (with a progress bar), and what was cut, said once."""
    with progress_bar(f"Encoding with {model.model_id}") as progress:
        result = text_similarity(model, texts, settings, metric=look.metric, reorder=look.reorder, progress=progress)
    if not say_cuts:
        return result
    for notice in result.embeddings.notices:
        st.warning(notice)
    if result.embeddings.truncated:
        named = ", ".join(f"{i + 1} (“{texts[i][:30]}…”)" for i in result.embeddings.truncated[:5])
        st.warning(f"Cut by {model.model_id}: text {named}. Only their first tokens count; split long texts "
                   "into shorter ones to compare all of them.")
    return result


def _value_text(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _mean_label(metric: Metric) -> str:
    return "Mean off-diagonal distance" if metric == "euclidean" else f"Mean off-diagonal {metric}"


def _heatmap(matrix: np.ndarray, texts: Sequence[str], look: Look, order: list[int] | None, key: str, *,
             title: str = "", height: int | None = None, compact: bool = False, columns: int = 1) -> None:
    st.plotly_chart(similarity_heatmap(matrix, texts, metric=look.metric, fixed_range=look.fixed, order=order,
                                       title=title, height=height, compact=compact, columns=columns), key=key)


def _baseline(texts: Sequence[str], settings: Settings, model: LoadedModel, look: Look,
              order: list[int] | None) -> None:
    """The same texts under untrained BERT, so the reader sees what "high" means without training."""
    if model.entry.untrained:
        st.caption("The sidebar model is the untrained baseline itself: random weights, no training.")
        return
    untrained = cached_model(UNTRAINED_ID, settings.device)
    layer = settings.layer if settings.layer is None or settings.layer <= untrained.num_layers else None
    base = _compared(untrained, texts, settings.with_(model_id=UNTRAINED_ID, layer=layer), look, say_cuts=False)
    st.metric("Same texts, untrained BERT", _value_text(base.mean), help=_mean_label(look.metric) + " under random "
                                                                           "weights.")
    _heatmap(base.matrix, texts, look, order, "sim_untrained_heatmap", title="untrained BERT", height=320,
             compact=True, columns=4)
    st.caption("The same texts under random weights: untrained encoders find almost everything similar, so a "
               "pair only counts as close when it stands out from this model's own mean.")
    csv_download(matrix_frame(base.matrix, texts, order), "similarity-untrained.csv", key="sim_untrained_csv")


def _single(texts: Sequence[str], settings: Settings, model: LoadedModel, a: TextSimilarity, look: Look) -> None:
    main, side = st.columns([3, 1])
    with main:
        _heatmap(a.matrix, texts, look, a.order, "sim_heatmap", title=_describe(settings, model))
        st.caption(CAPTIONS[look.metric] + (" Rows are reordered by hierarchical clustering so that groups show as "
                                            "blocks on the diagonal." if a.order else ""))
        csv_download(matrix_frame(a.matrix, texts, a.order), "similarity.csv", key="sim_csv")
    with side:
        st.metric(_mean_label(look.metric), _value_text(a.mean),
                  help="The average over all pairs of different texts: this model's idea of 'typical'.")
        _baseline(texts, settings, model, look, a.order)


def _compare(texts: Sequence[str], settings: Settings, model: LoadedModel, a: TextSimilarity, look: Look) -> None:
    chosen = configuration_b(settings, prefix="sim", default_pooling="default",
                             default_model=L3_ID if settings.model_id != L3_ID and L3_ID in available_ids()
                             else DEFAULT_MODEL_ID)
    if chosen is None:
        return
    b_settings, b_model = chosen
    b = _compared(b_model, texts, b_settings, look)
    one, two, three = st.columns(3)
    one.metric(f"{_mean_label(look.metric)}, A", _value_text(a.mean))
    two.metric(f"{_mean_label(look.metric)}, B", _value_text(b.mean),
               delta=None if a.mean is None else f"{b.mean - a.mean:+.3f}", delta_color="off")
    with three:
        with st.expander("Untrained BERT baseline"):
            _baseline(texts, settings, model, look, a.order)
    left, right = st.columns(2)
    with left:
        _heatmap(a.matrix, texts, look, a.order, "sim_heatmap", title="A: " + _describe(settings, model), columns=2)
        csv_download(matrix_frame(a.matrix, texts, a.order), "similarity-a.csv", key="sim_csv")
    with right:
        _heatmap(b.matrix, texts, look, a.order, "sim_b_heatmap", title="B: " + _describe(b_settings, b_model),
                 columns=2)
        csv_download(matrix_frame(b.matrix, texts, a.order), "similarity-b.csv", key="sim_b_csv")
    st.caption(CAPTIONS[look.metric] + " Both heatmaps use the same row order, so cells line up.")
    difference = b.matrix - a.matrix
    left, right = st.columns(2)
    with left:
        st.plotly_chart(difference_heatmap(difference, texts, order=a.order, title="B − A", columns=2),
                        key="sim_diff_heatmap")
        st.caption("Each cell is B's value minus A's for that pair: red where B scores the pair higher, blue "
                   "where lower, white where they agree.")
        csv_download(matrix_frame(difference, texts, a.order), "similarity-difference.csv", key="sim_diff_csv")
    with right:
        moved = moved_pairs(texts, a.matrix, b.matrix, top=15)
        st.markdown("**Pairs that moved most**")
        st.table(moved.style.format({name: "{:+.3f}" if name.startswith("change") else "{:.3f}"
                                     for name in ("change (B − A)", "A", "B")}).hide(axis="index"))
        st.caption("The pairs whose value changed most from A to B, largest change first: the ones a fine-tuned "
                   "or different model judges differently.")
        csv_download(moved, "pairs-moved.csv", index=False, key="sim_moved_csv")


def main() -> None:
    settings, model = active()
    st.title("Similarity")
    st.caption("How close does the model find each pair of texts? Type texts one per line or pick an example; "
               "the sidebar chooses the model, pooling and layer.")
    inputs, controls = st.columns([3, 2])
    with controls:
        kept(st.selectbox, "Example set", key="sim_example", default=PARAPHRASE_CLUSTERS, options=list(EXAMPLES),
             on_change=_load_example, help="Replaces the texts with a built-in set.")
        metric: Metric = kept(st.radio, "Measure", key="sim_metric", url=True, default="cosine", options=list(METRICS),
                              format_func=METRICS.get, horizontal=True)
        reorder = kept(st.toggle, "Group similar texts (hierarchical clustering)", key="sim_cluster", url=True,
                       default=False)
        fixed = kept(st.radio, "Colour range", key="sim_range", url=True, default="fixed", options=list(RANGES),
                     format_func=RANGES.get, horizontal=True,
                     help="Euclidean distance is always fitted: it has no fixed scale.") == "fixed"
        compare = kept(st.toggle, "Compare with configuration B", key="sim_compare", url=True, default=False,
                       help="The same texts under a second model, pooling or layer, side by side.")
    with inputs:
        raw = kept(st.text_area, "Texts, one per line", key=similarity_texts.KEY, url=True,
                   default=similarity_texts.DEFAULT,
                   height=230)
    texts, problems = limit_problems(lines(raw), load_config())
    for problem in problems:
        st.warning(problem)
    if not texts:
        st.info("There are no texts yet: type at least two, one per line, or pick an example set.")
        return
    if len(texts) == 1:
        st.info("One text gives a 1 × 1 matrix: its similarity with itself. Add a second line to compare.")
    for group in duplicate_groups(texts):
        st.info(f"Texts {', '.join(str(i + 1) for i in group)} are identical, so their similarity is 1 "
                "(distance 0) by construction.")
    look = Look(metric, fixed, reorder)
    (_compare if compare else _single)(texts, settings, model, _compared(model, texts, settings, look), look)


main()
