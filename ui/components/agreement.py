"""How far configurations A and B agree, shown the same way on every page that compares two spaces: the four
numbers, and the texts whose neighbourhoods changed most with both neighbour lists."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from core.analysis.agreement import Agreement, Overlap
from core.analysis.neighbour_changes import neighbour_lists
from core.data.sampling import sample_indices
from core.models.loading import LoadedModel
from core.plots.agreement import cka_heatmap
from core.settings import Settings
from ui.components.columns import THREE_DECIMALS
from ui.components.downloads import csv_download
from ui.state.persist import kept
from ui.work.background import layer_cka_job, waiting

LAYER_CKA_TEXTS = 2_000  # texts the layer-by-layer CKA of A and B reads: a seeded sample of a larger corpus

NUMBERS_CAPTION = ("Measured on the texts' full vectors (never on a 2-D map). CKA compares the two spaces' shapes "
                   "(1: one is a rotation and scaling of the other); kept in B is the share of each text's "
                   "nearest others that B keeps; RSA correlates the two similarity matrices' rankings of every pair; "
                   "the Procrustes residual is what is left after the best rotation (0 to 2, 0 is the same shape).")


def _shown(value: float, form: str = ".3f") -> str:
    return "—" if math.isnan(value) else f"{value:{form}}"


def agreement_metrics(found: Agreement) -> None:
    """The four numbers in one row, each with what it means; a caption says how they were measured."""
    one, two, three, four = st.columns(4)
    one.metric("CKA (linear)", _shown(found.cka),
               help="Linear CKA of the column-centred vectors, ‖XᵀY‖² / (‖XᵀX‖ ‖YᵀY‖): 1 when B is a rotation and "
                    "uniform scaling of A, near 0 when they share no structure.")
    two.metric(f"Kept in B (overlap@{found.overlap.k})", _shown(found.overlap.mean, ".0%"),
               help=f"On average, this share of each text's {found.overlap.k} nearest other texts (cosine) in A are "
                    "also among its nearest in B.")
    three.metric("RSA (Spearman)", _shown(found.rsa_spearman),
                 help="Spearman correlation of the cosine similarities of every pair of texts in A and in B"
                      + (f" (a seeded sample of {found.rsa_texts:,} texts)." if found.rsa_texts < found.texts
                         else "."))
    four.metric("Procrustes residual", _shown(found.procrustes),
                help="With both spaces centred and scaled to unit size, what remains of ‖XR − Y‖² after the best "
                     "rotation R (the narrower space padded with zeros): 0 is the same shape, 2 the most apart.")
    st.caption(f"{NUMBERS_CAPTION} Overlap: {found.overlap.caption}."
               + (f" With only {found.texts} texts, fewer than the {max(found.widths)} dimensions, CKA runs high and "
                  "the Procrustes residual low (a rotation fits so few points almost whatever the spaces), and the "
                  "overlap counts few neighbours; add texts for steadier numbers." if found.few_texts else ""))


def changed_panel(texts: Sequence[str], overlap: Overlap, table: pd.DataFrame, *, key: str, title: str,
                  caption: str) -> None:
    """The texts whose neighbourhoods changed most (`table`, from core.analysis.neighbour_changes.changed_most), and
    for one of them, its neighbours in A and in B side by side."""
    st.subheader(title)
    st.dataframe(table, hide_index=True, column_config={
        "neighbours changed": st.column_config.NumberColumn(format="percent"),
        "moved on the map": THREE_DECIMALS})
    st.caption(caption)
    csv_download(table, f"{key}-changed.csv", index=False, key=f"{key}_changed_csv")
    if table.empty:
        return
    listed = table["#"].tolist()
    row = st.selectbox("Both neighbour lists of", listed, key=f"{key}_changed_row",
                       format_func=lambda i: f"#{i} {texts[i][:70]}")
    st.dataframe(neighbour_lists(texts, overlap, int(row)), hide_index=True)
    st.caption(f"#{row}'s {overlap.k} nearest other texts in A and in B, nearest first; “also in” marks the "
               "neighbours both spaces share.")


def layer_cka_panel(texts: Sequence[str], a: tuple[Settings, LoadedModel], b: tuple[Settings, LoadedModel], *,
                    seed: int, key: str) -> None:
    """On request, linear CKA of every layer of A's model against every layer of B's over the texts (each side's
    pooling and prompt), as a heatmap with its numbers as CSV."""
    if not kept(st.toggle, "CKA of every layer of A against every layer of B", key=f"{key}_layer_cka", default=False,
                help="Encodes the texts with every layer of both models (one pass each, in the server's queue) and "
                     "compares each layer of A with each layer of B: which layers of the two networks see the texts "
                     "alike."):
        return
    rows = sample_indices(len(texts), limit=LAYER_CKA_TEXTS, seed=seed)
    read = [texts[i] for i in rows]
    matrix = layer_cka_job(a, b, read)
    if waiting(matrix):
        return
    st.plotly_chart(cka_heatmap(matrix, a_name=f"A: {a[1].model_id}", b_name=f"B: {b[1].model_id}"),
                    key=f"{key}_layer_cka_heatmap")
    st.caption(f"Linear CKA of every layer of A (rows, 0 the embeddings) against every layer of B (columns), each "
               f"layer's vectors pooled as its configuration pools them, over {len(read):,} of the texts"
               + (f" (a seeded sample of the {len(texts):,})" if len(read) < len(texts) else "")
               + ": a bright cell marks two layers that see the texts alike.")
    csv_download(pd.DataFrame(matrix, index=pd.Index(range(len(matrix)), name="layer of A"),
                              columns=[f"layer {j} of B" for j in range(matrix.shape[1])]),
                 f"{key}-layer-cka.csv", key=f"{key}_layer_cka_csv")
