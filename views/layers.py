import hashlib

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.attention import AttentionUnavailable, attention_maps, special_share
from core.analysis.layers import (EXAMPLE_SENTENCES, MAX_SENTENCES, Word, baseline_band, curves_frame, default_word,
                                  find_word, layer_agreement, pair_cosines, sentence_pairs, sentence_vectors_by_layer,
                                  token_alignment, word_at, word_vectors)
from core.analysis.similarity import limit_problems
from core.data.corpus import lines
from core.data.stsb import DataUnavailable, stsb_sentences
from core.deployment import load_config
from core.encoding.encoder import TokenStates, encode_tokens
from core.models.loading import LoadedModel
from core.plots.labels import shorten
from core.plots.layers import layer_bars, layer_curves, pair_colour, token_heatmap
from core.settings import Pooling, layer_used
from ui.downloads import csv_download
from ui.persist import kept
from ui.progress import progress_bar
from ui.sidebar import active

AGREEMENT_TEXTS = 100
MARKDOWN_CHARS = set("\\`*_{}[]()#+-.!|~<>$:")


def plain(text: str) -> str:
    """User text inside a Markdown string, shown as typed."""
    return "".join("\\" + ch if ch in MARKDOWN_CHARS else ch for ch in text)


@st.cache_resource(max_entries=32, show_spinner=False)
def token_states(_model: LoadedModel, fingerprint: str, texts: tuple[str, ...],
                 max_length: int | None) -> list[TokenStates]:
    """Token states per (weights, texts, limit), so a click on a chip does not run the model again."""
    return encode_tokens(_model, texts, max_length=max_length)


def pick_tokens(states: list[TokenStates]) -> list[Word | None]:
    """One row of token chips per sentence; the chosen word of each (None where none is chosen)."""
    shared = default_word(states)
    chosen = []
    for i, ts in enumerate(states):
        options = [p for p, special in enumerate(ts.special) if not special]
        start = find_word(ts, shared) if shared else None
        digest = hashlib.blake2b("\x1f".join(ts.tokens).encode(), digest_size=6).hexdigest()
        picked = kept(st.pills, f"Sentence {i + 1}", key=f"layers_token_{i}_{digest}",
                      default=start.pieces[0] if start else None, options=options,
                      format_func=lambda p, tokens=ts.tokens: plain(tokens[p]))
        chosen.append(word_at(ts, picked) if picked is not None else None)
    return chosen


def alignment_view(names: dict[int, str], states: list[TokenStates], num_layers: int, layer: int | None) -> None:
    left, middle, right = st.columns(3)
    a = left.selectbox("Sentence A", list(names), format_func=names.__getitem__, key="layers_align_a")
    b = middle.selectbox("Sentence B", list(names), index=min(1, len(names) - 1), format_func=names.__getitem__,
                         key="layers_align_b")
    shown = right.slider("Layer", 0, num_layers, layer_used(layer, num_layers), key="layers_align_layer")
    matrix = token_alignment(states[a], states[b], shown)
    st.plotly_chart(token_heatmap(matrix, states[a].tokens, states[b].tokens, colour_title="cosine",
                                  y_title=f"S{a + 1}", x_title=f"S{b + 1}"), key="layers_alignment")
    st.caption(f"Cosine between every token of S{a + 1} (rows) and every token of S{b + 1} (columns) at layer "
               f"{shown}; bright cells are tokens the layer represents alike. Colours are fitted to the values.")
    csv_download(pd.DataFrame(matrix, index=states[a].tokens, columns=states[b].tokens),
                 f"token_alignment_layer{shown}.csv", key="layers_csv_alignment")


def attention_view(model: LoadedModel, names: dict[int, str], texts: list[str], max_length: int | None) -> None:
    left, middle, right = st.columns(3)
    which = left.selectbox("Sentence", list(names), format_func=names.__getitem__, key="layers_att_text")
    try:
        maps = attention_maps(model, texts[which], max_length=max_length)
    except AttentionUnavailable as err:
        st.error(f"{err} Choose another model in the sidebar to see attention.")
    else:
        att_layer = middle.slider("Layer", 1, maps.num_layers, maps.num_layers, key="layers_att_layer")
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
            agreement_vectors = sentence_vectors_by_layer(model, agreement_texts, pooling=pooling,
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


settings, model = active()
st.title("Layers")
st.caption("How a word's vector and a sentence's vector change from the embedding layer (0) to the last layer "
           f"of {model.model_id} ({model.num_layers} layers).")

raw = kept(st.text_area, f"Sentences, one per line (2 to {MAX_SENTENCES})", key="layers_texts",
           default="\n".join(EXAMPLE_SENTENCES), height=120)
texts, problems = limit_problems(lines(raw), load_config())
for problem in problems:
    st.warning(problem)
if len(texts) > MAX_SENTENCES:
    st.warning(f"This page compares up to {MAX_SENTENCES} sentences; it uses the first {MAX_SENTENCES} of the "
               f"{len(texts)} lines. Remove lines to choose others.")
    texts = texts[:MAX_SENTENCES]
if not texts:
    st.warning("Type at least two sentences, one per line, that share a word (for example “bank” in three senses).")
    st.stop()

states = token_states(model, model.fingerprint, tuple(texts), settings.max_length)
cut = [str(i + 1) for i, ts in enumerate(states) if ts.truncated]
if cut:
    st.warning(f"Sentence(s) {', '.join(cut)} are longer than the token limit and were cut; raise “Max length” "
               "in the sidebar to see all of them.")

st.subheader("Token of interest")
st.caption("Click a token in each sentence. A word that the tokenizer splits into pieces is represented by the "
           "mean of its pieces.")
chosen = pick_tokens(states)
for i, (ts, word) in enumerate(zip(states, chosen)):
    if word is not None and len(word.pieces) > 1:
        pieces = " · ".join(ts.tokens[p] for p in word.pieces)
        st.info(f"Sentence {i + 1}: “{plain(word.text)}” is split into {len(word.pieces)} pieces "
                f"({plain(pieces)}); its vector is their mean.")
missing = [str(i + 1) for i, word in enumerate(chosen) if word is None]
if missing and len(missing) < len(texts):
    st.warning(f"Sentence(s) {', '.join(missing)} have no token chosen (the default word is not in them); click "
               "one of their tokens to include them. The other sentences still plot.")

pairs = sentence_pairs(len(texts))
pair_labels = [f"S{i + 1} · S{j + 1}" for i, j in pairs]
layer_count = model.num_layers + 1
token_curves = pair_cosines([word_vectors(ts, w) if w else None for ts, w in zip(states, chosen)], layer_count)
band = baseline_band(states)
by_layer = sentence_vectors_by_layer(model, texts, pooling=settings.pooling, max_length=settings.max_length)
sentence_curves = pair_cosines(list(by_layer.transpose(1, 0, 2)), layer_count)
curves = curves_frame(pair_labels=pair_labels, token=token_curves, sentence=sentence_curves, band=band)

drift_tab, sentence_tab, align_tab, attention_tab, agreement_tab = st.tabs(
    ["Token drift", "Sentence drift", "Token alignment", "Attention", "Layer agreement"], key="layers_tab",
    on_change="rerun")  # only the open tab runs

with drift_tab:
    plotted = [k for k in range(len(pairs)) if not np.isnan(token_curves[k]).any()]
    if len(texts) < 2:
        st.info("Token drift compares a word across sentences: add a second sentence (one per line).")
    elif not plotted:
        st.info("Choose a token in at least two sentences to see how their vectors drift apart or together.")
    else:
        hovers = [f"S{i + 1} “{chosen[i].text}” ↔ S{j + 1} “{chosen[j].text}”"
                  for i, j in (pairs[k] for k in plotted)]
        st.plotly_chart(layer_curves(token_curves[plotted], [pair_labels[k] for k in plotted], hovers,
                                     [pair_colour(k) for k in plotted], y_title="cosine of the chosen tokens",
                                     band=band), key="layers_token_drift")
        st.caption("Each line is one pair of sentences: the cosine between their chosen tokens at every layer. The "
                   "grey band is the mean ± 1 sd of random token pairs from these sentences at that same layer, so a "
                   "line far above the band means “the same word” beyond what every token shares at that layer.")
        csv_download(curves, "layer_curves.csv", "Download the curves (CSV)", index=False, key="layers_csv_token")

with sentence_tab:
    if len(texts) < 2:
        st.info("Sentence drift compares sentences: add a second sentence (one per line).")
    else:
        hovers = [f"S{i + 1}: {shorten(texts[i], 60)} ↔ S{j + 1}: {shorten(texts[j], 60)}" for i, j in pairs]
        st.plotly_chart(layer_curves(sentence_curves, pair_labels, hovers, [pair_colour(k) for k in range(len(pairs))],
                                     y_title=f"cosine of pooled sentences ({settings.pooling})"),
                        key="layers_sentence_drift")
        st.caption("Each line is one pair of sentences: the cosine of their pooled vectors (sidebar pooling) at "
                   "every layer. Lines that fan out in later layers are sentences the model learns to tell apart.")
        csv_download(curves, "layer_curves.csv", "Download the curves (CSV)", index=False, key="layers_csv_sentence")

names = {i: f"S{i + 1}: {shorten(t, 50)}" for i, t in enumerate(texts)}
with align_tab:
    if align_tab.open:
        alignment_view(names, states, model.num_layers, settings.layer)
with attention_tab:
    if attention_tab.open:
        attention_view(model, names, texts, settings.max_length)
with agreement_tab:
    if agreement_tab.open:
        agreement_view(model, texts, by_layer, settings.pooling, settings.max_length)
