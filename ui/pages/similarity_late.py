"""The Similarity page for a late-interaction model: the MaxSim matrix of the texts (rows read as queries, columns as
documents, not symmetric), and compare mode beside a dense configuration B, whose cosines are on another scale, so
the two are compared by rank."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from core.analysis.late.similarity import LateSimilarity, late_text_similarity, rank_agreement, rank_moves
from core.analysis.similarity import matrix_frame
from core.models.catalog import DEFAULT_MODEL_ID
from core.models.loading import LoadedModel
from core.settings import Settings
from ui.components.compare import configuration_b, describe
from ui.components.downloads import csv_download
from ui.pages.similarity import Look, compared, heatmap, mean_label, value_text
from ui.work.progress import progress_bar


def score_name(model: LoadedModel) -> str:
    return "MaxSim" if model.late_pipeline.similarity == "maxsim" else "MeanMaxSim"


def _maxsim_of(model: LoadedModel, texts: Sequence[str], reorder: bool) -> LateSimilarity:
    """The texts scored as queries against themselves as documents (with a progress bar), and what was cut, said."""
    with progress_bar(f"Encoding with {model.model_id}") as progress:
        result = late_text_similarity(model, texts, reorder=reorder, progress=progress)
    if result.truncated:
        named = ", ".join(f"{i + 1} (“{texts[i][:30]}…”)" for i in result.truncated[:5])
        st.warning(f"Cut by {model.model_id}: text {named}, at {model.late_pipeline.query_length} tokens as a query "
                   f"or {model.late_pipeline.document_length} as a document. Only their first tokens count; split "
                   "long texts into shorter ones to compare all of them.")
    return result


def _caption(model: LoadedModel, result: LateSimilarity) -> str:
    name = score_name(model)
    per = ("the sum over the row's query tokens of each one's best match among the column's document tokens"
           if name == "MaxSim" else "the mean over the row's query tokens of each one's best match among the "
                                    "column's document tokens")
    return (f"Each cell is the {name} of the row's text read as a query against the column's text read as a "
            f"document: {per}. The matrix is not symmetric: a query and a document are encoded differently (the "
            "query expansion, the prompts, the skiplist), and each query token looks for its own best match, so text "
            "i as a query for j is not j as a query for i. Colours are fitted to the values: a sum over tokens has "
            "no fixed scale. Click a cell to see its alignment below; labels are numbered by input line."
            + (" Rows and columns are reordered by hierarchical clustering on the mean of both directions."
               if result.order else ""))


def late_single(texts: Sequence[str], settings: Settings, model: LoadedModel, result: LateSimilarity,
                look: Look) -> None:
    main, side = st.columns([3, 1])
    name = score_name(model)
    with main:
        heatmap(result.matrix, texts, look, result.order, "sim_heatmap", clickable=True, value_name=name,
                title=f"{describe(settings, model)}<br><sup>rows are queries, columns documents</sup>")
        st.caption(_caption(model, result))
        csv_download(matrix_frame(result.matrix, texts, result.order), "maxsim.csv", key="sim_csv")
    with side:
        st.metric(f"Mean off-diagonal {name}", value_text(result.mean),
                  help="The average over every cell off the diagonal, both directions of each pair.")
        st.caption(f"{name} is a sum over the query's tokens, not a cosine, so the untrained BERT baseline (cosines "
                   "of one vector a text) is not set beside it.")


def late_compare(texts: Sequence[str], settings: Settings, model: LoadedModel, result: LateSimilarity,
                 look: Look) -> None:
    """A's MaxSim matrix beside a dense B's cosines, each on its own scale; compared by how they rank the pairs."""
    chosen = configuration_b(settings, prefix="sim", default_pooling="default", default_model=DEFAULT_MODEL_ID)
    if chosen is None:  # B is still to download, or cannot load: A alone
        late_single(texts, settings, model, result, look)
        return
    b_settings, b_model = chosen
    cosine = Look("cosine", True, look.reorder)
    b = compared(b_model, texts, b_settings, cosine)
    name = score_name(model)
    agreement = rank_agreement(result.matrix, b.matrix)
    one, two, three = st.columns(3)
    one.metric(f"Mean off-diagonal {name}, A", value_text(result.mean))
    two.metric(f"{mean_label('cosine')}, B", value_text(b.mean))
    three.metric("Rank agreement (Spearman ρ)", value_text(agreement),
                 help="How alike A and B order the pairs: Spearman's correlation over every cell off the diagonal "
                      "(both directions of each pair), whatever the two scales.")
    left, right = st.columns(2)
    with left:
        heatmap(result.matrix, texts, look, result.order, "sim_heatmap", columns=2, clickable=True, value_name=name,
                title=f"A: {describe(settings, model)}")
        csv_download(matrix_frame(result.matrix, texts, result.order), "maxsim-a.csv", key="sim_csv")
    with right:
        heatmap(b.matrix, texts, cosine, result.order, "sim_b_heatmap", columns=2,
                title="B: " + describe(b_settings, b_model))
        csv_download(matrix_frame(b.matrix, texts, result.order), "similarity-b.csv", key="sim_b_csv")
    st.caption(f"A is a late-interaction model: {name}, a sum over the query's tokens, on a scale of its own and not "
               "symmetric; B is a dense configuration: the cosine of one vector a text, from −1 to 1 and symmetric. "
               "A difference B − A would mix the two units, so they are compared by rank instead: where each places a "
               "pair among all the pairs. Both heatmaps use the same row order, so cells line up.")
    moved = rank_moves(texts, result.matrix, b.matrix, top=15)
    st.markdown("**Pairs ranked most differently**")
    st.table(moved.style.format({"rank change (B − A)": "{:+.0f}", "rank in A": "{:.0f}", "rank in B": "{:.0f}",
                                 "A": "{:.3f}", "B": "{:.3f}"}).hide(axis="index"))
    st.caption("Each (query, document) cell's rank among all the cells off the diagonal, as a percentile (100 = the "
               "highest score of its matrix), in A and in B, largest change first: the pairs the two models judge "
               "differently, whatever their scales.")
    csv_download(moved, "pairs-ranked-differently.csv", index=False, key="sim_moved_csv")


def late_similarity(texts: Sequence[str], settings: Settings, model: LoadedModel, look: Look,
                    compare: bool) -> np.ndarray:
    """The MaxSim matrix of the texts (beside a dense B's cosines in compare mode); the matrix a pair is picked from."""
    result = _maxsim_of(model, texts, look.reorder)
    (late_compare if compare else late_single)(texts, settings, model, result, look)
    return result.matrix
