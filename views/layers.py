"""Layers: how a word's vector and a sentence's vector drift from the embedding layer to the last."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.analysis.layers import (
    EXAMPLE_SENTENCES,
    MAX_SENTENCES,
    Drift,
    Word,
    default_word,
    find_word,
    word_at,
)
from core.analysis.similarity import limit_problems
from core.data.corpus import lines
from core.deployment import load_config
from core.encoding.encoder import TokenStates
from core.kinds import kind_of
from core.plots.labels import shorten
from core.plots.layers import layer_curves, pair_colour
from ui.components.downloads import csv_download
from ui.components.prompts import text_prompt
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.layers import agreement_view, alignment_view, attention_view
from ui.state.persist import kept, texts_key
from ui.work.cache import drift_of, token_states_of

AGREEMENT_TEXTS = 100
MARKDOWN_CHARS = set("\\`*_{}[]()#+-.!|~<>$:")


def plain(text: str) -> str:
    """User text inside a Markdown string, shown as typed."""
    return "".join("\\" + ch if ch in MARKDOWN_CHARS else ch for ch in text)


def pick_tokens(states: list[TokenStates], shared: str | None) -> list[Word | None]:
    """One row of token chips per sentence, starting on `shared`; the chosen word of each (None where none is)."""
    chosen = []
    for i, ts in enumerate(states):
        options = [p for p, special in enumerate(ts.special) if not special and p >= ts.prompt_tokens]
        start = find_word(ts, shared) if shared else None
        picked = kept(st.pills, f"Sentence {i + 1}", key=f"layers_token_{i}_{texts_key([*ts.tokens, shared or ''])}",
                      default=start.pieces[0] if start else None, options=options,
                      format_func=lambda p, tokens=ts.tokens: plain(tokens[p]))
        chosen.append(word_at(ts, picked) if picked is not None else None)
    return chosen


def read_texts() -> list[str]:
    raw = kept(st.text_area, f"Sentences, one per line (2 to {MAX_SENTENCES})", key="layers_texts", url=True,
               default="\n".join(EXAMPLE_SENTENCES), height=120)
    texts, problems = limit_problems(lines(raw), load_config())
    for problem in problems:
        st.warning(problem)
    if len(texts) > MAX_SENTENCES:
        st.warning(f"This page compares up to {MAX_SENTENCES} sentences; it uses the first {MAX_SENTENCES} of the "
                   f"{len(texts)} lines. Remove lines to choose others.")
    return texts[:MAX_SENTENCES]


def followed_word(states: list[TokenStates]) -> str | None:
    """The typed word where a sentence has it, else the content word the sentences share."""
    typed = kept(st.text_input, "Word to follow", key="layers_word", url=True, default="",
                 placeholder="the word the sentences share", help="The chips below start on this word in every "
                 "sentence that has it; left empty, on the content word most sentences share.").strip()
    if typed and any(find_word(ts, typed) for ts in states):
        return typed
    shared = default_word(states)
    if typed:
        st.info(f"“{plain(typed)}” is in none of the sentences, so the chips start on "
                + (f"“{plain(shared)}”." if shared else "no word."))
    return shared


def choose_words(states: list[TokenStates], model) -> list[Word | None]:
    st.subheader("Token of interest")
    st.caption("Click a token in each sentence. A word that the tokenizer splits into pieces is represented by the "
               "mean of its pieces.")
    if states and states[0].prompt:
        counted = "counted by pooling" if model.pipeline.include_prompt else "left out of pooling"
        st.caption(f"Each sentence is read after the prompt {plain(repr(states[0].prompt))} ({states[0].prompt_tokens} "
                   f"tokens, {counted}); its tokens are not offered here.")
    shared = followed_word(states)
    chosen = pick_tokens(states, shared)
    for i, (ts, word) in enumerate(zip(states, chosen)):
        if word is not None and len(word.pieces) > 1:
            pieces = " · ".join(ts.tokens[p] for p in word.pieces)
            st.info(f"Sentence {i + 1}: “{plain(word.text)}” is split into {len(word.pieces)} pieces "
                    f"({plain(pieces)}); its vector is their mean.")
    missing = [i for i, word in enumerate(chosen) if word is None]
    if missing and len(missing) < len(states):
        cleared = [str(i + 1) for i in missing if shared is not None and find_word(states[i], shared) is not None]
        absent = [str(i + 1) for i in missing if str(i + 1) not in cleared]
        reasons = ([f"sentence(s) {', '.join(cleared)}: its chip was cleared"] if cleared else []) + (
            [f"sentence(s) {', '.join(absent)}: "
             + (f"“{plain(shared)}” is not in it" if shared else "no word is shared by two sentences")]
            if absent else [])
        st.warning(f"No token chosen in {'; '.join(reasons)}. Click one of its tokens to include it; the other "
                   "sentences still plot.")
    return chosen


def drift_tab(drift: Drift, chosen: list[Word | None]) -> None:
    plotted = [k for k in range(len(drift.pairs)) if not np.isnan(drift.token[k]).any()]
    if len(drift.by_layer[0]) < 2:
        st.info("Token drift compares a word across sentences: add a second sentence (one per line).")
        return
    if not plotted:
        st.info("Choose a token in at least two sentences to see how their vectors drift apart or together.")
        return
    hovers = [f"S{i + 1} “{chosen[i].text}” ↔ S{j + 1} “{chosen[j].text}”"
              for i, j in (drift.pairs[k] for k in plotted)]
    st.plotly_chart(layer_curves(drift.token[plotted], [drift.labels[k] for k in plotted], hovers,
                                 [pair_colour(k) for k in plotted], y_title="cosine of the chosen tokens",
                                 band=drift.band), key="layers_token_drift")
    st.caption("Each line is one pair of sentences: the cosine between their chosen tokens at every layer. The grey "
               "band is the mean ± 1 sd of random token pairs from these sentences at that same layer, so a line "
               "far above the band means “the same word” beyond what every token shares at that layer.")
    csv_download(drift.frame(), "layer_curves.csv", "Download the curves (CSV)", index=False, key="layers_csv_token")


def sentence_tab(drift: Drift, texts: list[str], pooling: str) -> None:
    if len(texts) < 2:
        st.info("Sentence drift compares sentences: add a second sentence (one per line).")
        return
    hovers = [f"S{i + 1}: {shorten(texts[i], 60)} ↔ S{j + 1}: {shorten(texts[j], 60)}" for i, j in drift.pairs]
    st.plotly_chart(layer_curves(drift.sentence, drift.labels, hovers, [pair_colour(k) for k in range(len(hovers))],
                                 y_title=f"cosine of pooled sentences ({pooling})"), key="layers_sentence_drift")
    st.caption(f"Each line is one pair of sentences: the cosine of their vectors ({pooling}) at every layer. Lines "
               "that fan out in later layers are sentences the model learns to tell apart.")
    csv_download(drift.frame(), "layer_curves.csv", "Download the curves (CSV)", index=False,
                 key="layers_csv_sentence")


def main() -> None:
    settings, model = page("Layers")
    st.caption("How a word's vector and a sentence's vector change from the embedding layer (0) to the last layer "
               f"of {model.model_id} ({model.num_layers} layers).")
    st.page_link("views/probes.py", label="Does the model separate your classes? “What each layer knows” probes your "
                 "labels at every layer", icon=":material/label:")
    if model.static:
        st.info(f"{model.model_id} is a static model: it has no layers (its one layer is the token vectors, each "
                "looked up alone), so nothing drifts across layers; open Similarity or Retrieval to explore it.")
        return
    texts = read_texts()
    prompt = text_prompt(model, settings.max_length, key="layers_prompt")
    if not texts:
        st.warning("Type at least two sentences, one per line, that share a word (for example “bank” in three "
                   "senses).")
        return
    states = token_states_of(model, model.fingerprint, tuple(texts), settings.max_length, prompt)
    cut = [str(i + 1) for i, ts in enumerate(states) if ts.truncated]
    if cut:
        st.warning(f"Sentence(s) {', '.join(cut)} are longer than the token limit and were cut; raise “Max length” "
                   "in the sidebar to see all of them.")
    chosen = choose_words(states, model)
    drift = drift_of(model, model.fingerprint, tuple(texts), settings.max_length, prompt, tuple(chosen),
                     settings.pooling)
    kind, extra = kind_of(model), views_of(model).layer_tabs
    tabs = st.tabs(["Token drift", "Sentence drift", "Token alignment", "Attention", "Layer agreement", *extra],
                   key="layers_tab", on_change="rerun", bind="query-params")
    with tabs[0]:  # the tabs after the second run only when open
        drift_tab(drift, chosen)
    with tabs[1]:
        if not kind.applies.one_vector_per_text:
            st.info(kind.no_sentence_drift)
        else:
            sentence_tab(drift, texts, kind.layer_vectors or f"{settings.pooling} pooling")
    with tabs[2]:
        if tabs[2].open:
            alignment_view(texts, states, model.num_layers, settings.layer)
    with tabs[3]:
        if tabs[3].open:
            attention_view(model, texts, settings.max_length)
    with tabs[4]:
        if not kind.applies.one_vector_per_text:
            st.info(views_of(model).not_shown["layer_agreement"])
        elif tabs[4].open:
            agreement_view(model, texts, drift.by_layer, settings.pooling, settings.max_length)
    for tab, draw in zip(tabs[5:], extra.values()):
        with tab:
            if tab.open:
                draw(model, texts, settings.max_length, prompt)


main()
