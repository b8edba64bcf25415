"""The Layers page's tabs that run only when open: a sparse model's terms by layer, token alignment, attention maps,
layer agreement."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.agreement import cka_matrix
from core.analysis.attention import AttentionUnavailable, attention_maps, special_share
from core.analysis.layer_terms import top_terms_by_layer
from core.analysis.layers import layer_agreement, token_alignment
from core.data.stsb import DataUnavailable, stsb_sentences
from core.encoding.encoder import TokenStates
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.plots.agreement import cka_heatmap
from core.plots.labels import shorten
from core.plots.layers import layer_bars, token_heatmap
from core.plots.terms import active_terms_figure
from core.settings import Pooling, layer_used
from ui.components.downloads import csv_download
from ui.components.sliders import layer_slider
from ui.state.persist import texts_key
from ui.work.cache import layer_terms_of
from ui.work.progress import progress_bar

AGREEMENT_TEXTS = 100


def sentence_names(texts: list[str]) -> tuple[dict[int, str], str]:
    """Picker labels, and a key suffix that changes with the texts (so a picker never shows stale names)."""
    return {i: f"S{i + 1}: {shorten(t, 50)}" for i, t in enumerate(texts)}, texts_key(texts)


def terms_view(model: LoadedModel, texts: list[str], max_length: int | None, prompt: str) -> None:
    """Which terms each layer of a SPLADE model would turn on: its masked-LM head and pooling on each layer."""
    try:
        found = layer_terms_of(model, model.fingerprint, tuple(texts), max_length, prompt)
    except ValueError as err:
        st.info(str(err))
        return
    st.plotly_chart(active_terms_figure(found.active()), key="layers_terms_active")
    st.caption("How many vocabulary entries each layer would turn on if the model's masked-LM head and SPLADE pooling "
               "read that layer's token states (log scale; the last layer is the model's own vector). Early layers "
               "light up thousands of terms; training teaches the last ones to keep a few dozen.")
    names, suffix = sentence_names(texts)
    picked = st.selectbox("Sentence", list(names), format_func=names.__getitem__, key=f"layers_terms_{suffix}")
    table = top_terms_by_layer(model, found, picked)
    st.dataframe(table, hide_index=True)
    st.caption(f"S{picked + 1}'s heaviest terms at each layer, with their weights: watch the text's own words settle "
               "and the expansion (related words it does not hold) appear.")
    csv_download(found.active(), "terms-by-layer.csv", index=False, key="layers_terms_csv")


def alignment_view(texts: list[str], states: list[TokenStates], num_layers: int, layer: int | None) -> None:
    names, suffix = sentence_names(texts)
    left, middle, right = st.columns(3)
    a = left.selectbox("Sentence A", list(names), format_func=names.__getitem__, key=f"layers_align_a_{suffix}")
    b = middle.selectbox("Sentence B", list(names), index=min(1, len(names) - 1), format_func=names.__getitem__,
                         key=f"layers_align_b_{suffix}")
    shown = right.slider("Layer", 0, num_layers, layer_used(layer, num_layers), key="layers_align_layer")
    matrix = token_alignment(states[a], states[b], shown)
    st.plotly_chart(token_heatmap(matrix, states[a].tokens, states[b].tokens, colour_title="cosine",
                                  y_title=f"S{a + 1}", x_title=f"S{b + 1}"), key="layers_alignment")
    st.caption(f"Cosine between every token of S{a + 1} (rows) and every token of S{b + 1} (columns) at layer "
               f"{shown}; bright cells are tokens the layer represents alike. Colours are fitted to the values.")
    csv_download(pd.DataFrame(matrix, index=states[a].tokens, columns=states[b].tokens),
                 f"token_alignment_layer{shown}.csv", key="layers_csv_alignment")


def attention_view(model: LoadedModel, texts: list[str], max_length: int | None) -> None:
    names, suffix = sentence_names(texts)
    left, middle, right = st.columns(3)
    which = left.selectbox("Sentence", list(names), format_func=names.__getitem__, key=f"layers_att_text_{suffix}")
    try:
        maps = attention_maps(model, texts[which], max_length=max_length)
    except AttentionUnavailable as err:
        st.error(f"{err} Choose another model in the sidebar to see attention.")
    else:
        att_layer = layer_slider("Layer", 1, maps.num_layers, maps.num_layers, where=middle, key="layers_att_layer")
        head = right.selectbox("Head", list(range(maps.num_heads)), format_func=lambda h: f"head {h + 1}",
                               key="layers_att_head")
        one, mean = st.columns(2)
        with one:
            st.plotly_chart(token_heatmap(maps.head(att_layer, head), maps.tokens, maps.tokens, colour_title="weight",
                                          colourscale="Blues", zmin=0, zmax=1, y_title="attending token",
                                          x_title="attended token", values=False), key="layers_att_head_fig")
            st.caption(f"Layer {att_layer}, head {head + 1}: each row is how one token spreads its attention over "
                       "the tokens (rows sum to 1).")
        with mean:
            st.plotly_chart(token_heatmap(maps.mean_over_heads(att_layer), maps.tokens, maps.tokens,
                                          colour_title="weight", colourscale="Blues", zmin=0, zmax=1,
                                          y_title="attending token", x_title="attended token", values=False),
                            key="layers_att_mean_fig")
            st.caption(f"Layer {att_layer}, mean over the {maps.num_heads} heads.")
        share = special_share(maps)
        layers = list(range(1, maps.num_layers + 1))
        st.plotly_chart(layer_bars(share, layers, y_title="share of attention to [CLS]/[SEP]", y_range=(0, 1.1),
                                   hover_format=".0%"), key="layers_att_special")
        st.caption("Per layer, the share of all attention (mean over heads and tokens) that lands on the special "
                   "tokens; a high share often means heads with nothing to do “park” their attention there.")
        csv_download(pd.DataFrame({"layer": layers, "special_token_share": share}), "attention_special_share.csv",
                     key="layers_csv_special")


def agreement_view(model: LoadedModel, texts: list[str], by_layer: np.ndarray, pooling: Pooling,
                   max_length: int | None) -> None:
    source = st.radio("Texts", [f"{AGREEMENT_TEXTS} STS-B dev sentences", "The sentences above"], horizontal=True,
                      key="layers_agree_source")
    if source == "The sentences above":
        agreement_texts, agreement_vectors = texts, by_layer
    else:
        try:
            agreement_texts = stsb_sentences("dev")[:AGREEMENT_TEXTS]
        except DataUnavailable as err:
            st.warning(f"{err} Or choose “The sentences above”.")
            return
        with progress_bar("Encoding STS-B sentences") as progress:
            agreement_vectors = kind_of(model).vectors_by_layer(model, agreement_texts, pooling=pooling,
                                                             max_length=max_length, progress=progress)
    if len(agreement_texts) < 3:
        st.info("Layer agreement ranks the similarities between at least 3 texts: add sentences above, or use "
                "the STS-B sentences.")
    else:
        rho = layer_agreement(agreement_vectors)
        st.plotly_chart(layer_bars(rho, list(range(model.num_layers + 1)), y_title="Spearman ρ with the last layer",
                                   y_range=(min(0.0, float(np.nanmin(rho))) - 0.1, 1.1)), key="layers_agreement")
        st.caption(f"For the {len(agreement_texts)} texts, the Spearman correlation between each layer's pairwise "
                   "cosine similarities (sidebar pooling) and the last layer's: how early the final notion of "
                   "“similar” takes shape (the last layer is 1 by definition).")
        csv_download(pd.DataFrame({"layer": range(model.num_layers + 1), "spearman_vs_last": rho}),
                     "layer_agreement.csv", key="layers_csv_agreement")
        cka_view(model, agreement_vectors)


def cka_view(model: LoadedModel, by_layer: np.ndarray) -> None:
    """Each layer's linear CKA with the last, and every layer against every layer."""
    matrix = cka_matrix(list(by_layer))
    layers = list(range(len(matrix)))
    st.plotly_chart(layer_bars(matrix[:, -1], layers, y_title="linear CKA with the last layer", y_range=(0, 1.1)),
                    key="layers_cka")
    st.caption(f"For the same {by_layer.shape[1]} texts, linear CKA between each layer's pooled vectors and the last "
               "layer's: 1 when a layer's space is the last one's up to rotation and scale. Where Spearman above "
               "asks whether the pairs rank alike, CKA compares the whole shape of the two spaces."
               + (f" With fewer texts than dimensions ({by_layer.shape[1]} in {by_layer.shape[2]}) CKA runs high for "
                  "every layer: compare the bars with each other rather than with 1."
                  if by_layer.shape[1] < by_layer.shape[2] else ""))
    with st.expander("Every layer against every layer"):
        st.plotly_chart(cka_heatmap(matrix, a_name=model.model_id, b_name=model.model_id), key="layers_cka_matrix")
        st.caption("Linear CKA of every pair of layers (0 is the embedding layer): neighbouring layers agree most, "
                   "and a bright block marks layers that see the texts alike.")
    csv_download(pd.DataFrame(matrix, index=pd.Index(layers, name="layer"), columns=layers), "layer_cka.csv",
                 key="layers_csv_cka")
