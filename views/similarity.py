"""Similarity page: a text × text heatmap of the sidebar's configuration, an untrained baseline, compare mode."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from core.analysis.agreement import agreement, overlap_k
from core.analysis.similarity import (
    METRICS,
    TextSimilarity,
    duplicate_groups,
    limit_problems,
    matrix_frame,
    moved_pairs,
)
from core.data.corpus import lines
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.deployment import load_config
from core.models.catalog import DEFAULT_MODEL_ID, L3_ID
from core.models.loading import LoadedModel
from core.plots.heatmap import difference_heatmap
from core.settings import Settings
from ui.components import similarity_texts
from ui.components.agreement import agreement_metrics
from ui.components.compare import configuration_b, describe
from ui.components.downloads import csv_download
from ui.components.explain import pair_section
from ui.components.prompts import text_prompt
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.similarity import CAPTIONS, Look, baseline, compared, heatmap, mean_label, value_text
from ui.state.persist import kept, set_kept
from ui.work.cache import available_ids

RANGES = {"fixed": "fixed [−1, 1]", "fitted": "fitted to the data"}


def _load_example() -> None:
    set_kept(similarity_texts.KEY, "\n".join(EXAMPLES[st.session_state.sim_example]))


def _single(texts: Sequence[str], settings: Settings, model: LoadedModel, a: TextSimilarity, look: Look) -> None:
    main, side = st.columns([3, 1])
    with main:
        heatmap(a.matrix, texts, look, a.order, "sim_heatmap", title=describe(settings, model), clickable=True)
        st.caption(CAPTIONS[views_of(model).caption or look.metric]
                   + (" Rows are reordered by hierarchical clustering so that groups show as blocks on the diagonal."
                      if a.order else ""))
        csv_download(matrix_frame(a.matrix, texts, a.order), "similarity.csv", key="sim_csv")
    with side:
        st.metric(mean_label(look.metric), value_text(a.mean),
                  help="The average over all pairs of different texts: this model's idea of 'typical'.")
        baseline(texts, settings, model, look, a.order)


def _compare(texts: Sequence[str], settings: Settings, model: LoadedModel, a: TextSimilarity, look: Look) -> None:
    chosen = configuration_b(settings, prefix="sim", default_pooling="default",
                             default_model=L3_ID if settings.model_id != L3_ID and L3_ID in available_ids()
                             else DEFAULT_MODEL_ID)
    if chosen is None:  # B is still to download, or cannot load: A alone
        _single(texts, settings, model, a, look)
        return
    b_settings, b_model = chosen
    b = compared(b_model, texts, b_settings, look)
    one, two, three = st.columns(3)
    one.metric(f"{mean_label(look.metric)}, A", value_text(a.mean))
    two.metric(f"{mean_label(look.metric)}, B", value_text(b.mean),
               delta=None if a.mean is None else f"{b.mean - a.mean:+.3f}", delta_color="off")
    with three:
        with st.expander("Untrained BERT baseline"):
            baseline(texts, settings, model, look, a.order)
    if len(texts) >= 3:
        agreement_metrics(agreement(a.embeddings.vectors, b.embeddings.vectors, k=overlap_k(len(texts))))
    left, right = st.columns(2)
    with left:
        heatmap(a.matrix, texts, look, a.order, "sim_heatmap", title="A: " + describe(settings, model), columns=2,
                 clickable=True)
        csv_download(matrix_frame(a.matrix, texts, a.order), "similarity-a.csv", key="sim_csv")
    with right:
        heatmap(b.matrix, texts, look, a.order, "sim_b_heatmap", title="B: " + describe(b_settings, b_model),
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
    settings, model = page("Similarity")
    st.caption("How close does the model find each pair of texts? Type texts one per line or pick an example; "
               "the sidebar chooses the model, pooling and layer.")
    inputs, controls = st.columns([3, 2])
    with controls:
        kept(st.selectbox, "Example set", key="sim_example", default=PARAPHRASE_CLUSTERS, options=list(EXAMPLES),
             on_change=_load_example, help="Replaces the texts with a built-in set.")
        views = views_of(model)
        if views.measure is not None:  # the model's own similarity
            metric, said = views.measure(model)
            st.caption(said)
        else:
            metric = kept(st.radio, "Measure", key="sim_metric", url=True, default="cosine", options=list(METRICS),
                          format_func=METRICS.get, horizontal=True)
        reorder = kept(st.toggle, "Group similar texts (hierarchical clustering)", key="sim_cluster", url=True,
                       default=False)
        fixed = metric == "cosine" and kept(
            st.radio, "Colour range", key="sim_range", url=True, default="fixed", options=list(RANGES),
            format_func=RANGES.get, horizontal=True,
            help="Euclidean distance and the dot product are always fitted: they have no fixed scale.") == "fixed"
        compare = views.compares and kept(st.toggle, "Compare with configuration B", key="sim_compare", url=True,
                                      default=False,
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
    if views.similarity is not None:
        pair_section(model, settings, texts, views.similarity(texts, settings, model, look, compare), metric,
                     views.explain)
        return
    with controls:
        settings = settings.with_(prompt=text_prompt(model, settings.max_length, key="sim_prompt"))
    a = compared(model, texts, settings, look)
    (_compare if compare else _single)(texts, settings, model, a, look)
    pair_section(model, settings, texts, a.matrix, metric, views.explain)


main()
