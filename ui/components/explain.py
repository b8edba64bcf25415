"""Why two texts are similar: the exact token-pair split of their score and, for any pooling, integrated gradients.
One component for every page that shows a pair (Similarity, Retrieval)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from core.analysis.explanation import NoExactSplit, PairExplanation
from core.analysis.late.alignment import alignment, scores
from core.analysis.late.similarity import alignment_table
from core.analysis.similarity import Metric, closest_pair
from core.analysis.terms import explain_terms
from core.encoding.late.tokens import encode_multivector
from core.models.loading import LoadedModel
from core.plots.explanation import attribution_bars, contribution_heatmap, split_bar, token_strip
from core.plots.labels import shorten
from core.plots.late.tokens import alignment_figure
from core.plots.terms import TOP_TERMS, split_figure
from core.settings import Settings, layer_used
from ui.components.downloads import csv_download
from ui.components.sliders import layer_slider
from ui.state.persist import texts_key
from ui.work.background import attribution_job, waiting
from ui.work.cache import explanation_of

TOP = 5
# a pair's explanation panel, as each kind draws it (ui.kinds): model, settings, the two texts; a key and each text's
# side (its prompt and role) as keywords
Explain = Callable[..., None]
PAIR_KEY = "sim_pair"  # in the URL: the explained pair as "i,j", line numbers from 1


def _exact(explanation: PairExplanation, key: str) -> None:
    hide = st.toggle("Hide [CLS] and [SEP] in the figures (they stay in every sum)", key=f"{key}_hide")
    score, total, top = st.columns(3)
    score.metric("Cosine of the pair", f"{explanation.score:.4f}")
    total.metric("Sum of the token-pair contributions", f"{explanation.total:.4f}",
                 help="Equal to the cosine: the split is exact for this pooling.")
    top.metric(f"Share of the {TOP} strongest pairs", f"{explanation.top_share(TOP):.0%}")
    for side, name in ((explanation.a, "A"), (explanation.b, "B")):
        if side.truncated:
            st.info(f"Text {name} is longer than the model's token limit: the explanation covers the part it kept.")
        st.plotly_chart(token_strip(side, name=name, hide_special=hide), key=f"{key}_strip_{name}")
    st.caption("Each text's tokens, shaded by their total contribution to the score (red adds, blue takes away). "
               "Hover a token for its number.")
    st.plotly_chart(contribution_heatmap(explanation, hide_special=hide), key=f"{key}_matrix")
    st.caption("Every cell is one token of A (row) with one token of B (column): its share of the cosine. With "
               f"{explanation.pooling} pooling the cells add up to the score exactly, special tokens included.")
    st.dataframe(explanation.top_pairs(TOP), hide_index=True, column_config={
        "contribution": st.column_config.NumberColumn(format="%.4f"),
        "share of the score": st.column_config.NumberColumn(format="percent")})
    st.plotly_chart(split_bar(explanation), key=f"{key}_split")
    st.caption("The same cosine in two parts: along the direction every text shares at this layer (measured on "
               "STS-B sentences) and what these two texts share beyond it. Untrained and raw layers score high "
               "mostly through the first part.")
    csv_download(explanation.frame(), "explanation.csv", index=False, key=f"{key}_csv")


def _attribution(model: LoadedModel, settings: Settings, a: str, b: str, layer: int, key: str) -> None:
    st.caption("Integrated gradients follow the score through the network for any pooling: each token's share of "
               "how far the score moves from a baseline (the text with its words replaced by padding). The gap says "
               "how complete the attribution is; more steps shrink it.")
    left, right = st.columns(2)
    steps = left.number_input("Steps", min_value=4, max_value=200, value=32, step=4, key=f"{key}_steps")
    where = layer_slider("Attribute at layer", 0, layer, min(model.num_layers // 2, layer), where=right,
                         key=f"{key}_where", help="0 is the embedding layer: the deepest explanation, and the slowest.")
    asked = (model.fingerprint, a, b, settings.pooling, settings.max_length, layer, where, int(steps))
    if st.button("Run integrated gradients", key=f"{key}_run"):
        st.session_state[f"{key}_ig_asked"] = asked
    if st.session_state.get(f"{key}_ig_asked") != asked:  # shown until the pair or a setting changes
        return
    result = attribution_job(model, a, b, settings, layer, where, int(steps))
    if waiting(result):
        return
    for side, name in ((result.a, "A (B fixed)"), (result.b, "B (A fixed)")):
        st.plotly_chart(attribution_bars(side, name=name), key=f"{key}_ig_{name[0]}")
        csv_download(side.frame(), f"attribution-{name[0]}.csv", index=False, key=f"{key}_ig_csv_{name[0]}")


def terms_panel(model: LoadedModel, settings: Settings, a: str, b: str, *, key: str,
                sides: tuple[Settings, Settings] | None = None) -> None:
    """A sparse model's score of the pair split into the terms both texts hold: exact, for any sparse model; each text
    encoded as its side says (its prompt and role; `settings` for both by default)."""
    split = explain_terms(model, a, b, sides or (settings, settings))
    score, total, shared = st.columns(3)
    score.metric(f"Score ({split.similarity})", f"{split.score:.4f}")
    total.metric("Sum of the shared terms' contributions", f"{split.total:.4f}",
                 help="Equal to the score: only terms both texts hold add to it.")
    shared.metric("Terms both hold", f"{len(split.table):,}",
                  help=f"A has {split.only_a:,} more terms and B {split.only_b:,} more, which add nothing.")
    if split.table.empty:
        st.info("The two texts share no term, so the model scores them 0, whatever their meaning.")
        return
    st.plotly_chart(split_figure(split), key=f"{key}_terms")
    st.caption(f"The {TOP_TERMS} terms that add most to the score: each bar is a term's weight in A times its weight "
               "in B" + (" over both vectors' lengths" if split.similarity == "cosine" else "")
               + "; all the bars together (the table has every one) make the score exactly.")
    st.dataframe(split.table, hide_index=True, column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in split.table.columns[1:]})
    csv_download(split.table, "term-split.csv", index=False, key=f"{key}_terms_csv")


def alignment_panel(model: LoadedModel, settings: Settings, a: str, b: str, *, key: str,
                    sides: tuple[Settings, Settings] | None = None) -> None:
    """A late-interaction model's score of `a` as a query for `b` as a document, split into every query token's
    best match: exact, the shares summing to the model's own score (its own encode_query and encode_document: the
    settings do not apply)."""
    query = encode_multivector(model, [a], role="query")[0]
    document = encode_multivector(model, [b], role="document")[0]
    explained = alignment(model, query, document)
    name = "MaxSim" if explained.similarity == "maxsim" else "MeanMaxSim"
    score, typed, expansion, prompt = st.columns(4)
    score.metric(f"{name} of A for B", f"{float(scores(model, [query], [document])[0, 0]):.4f}",
                 help="The model's own similarity (MultiVectorEncoder.similarity), A read as the query and B as the "
                      "document.")
    typed.metric("Share of A's own tokens", f"{explained.typed_share:.4f}",
                 help="The text's tokens with the tokenizer's [CLS] and [SEP].")
    expansion.metric("Share of the query expansion", f"{explained.expansion_share:.4f}",
                     help="The expansion tokens the model adds to every query: they match too, and add to the score.")
    prompt.metric("Share of the prompt or marker", f"{explained.prompt_share:.4f}")
    for text, name_of in ((query, "A as a query"), (document, "B as a document")):
        if text.truncated:
            st.info(f"{name_of} is longer than the model reads for that role: the alignment covers the part it kept.")
    st.plotly_chart(alignment_figure(explained, query_name="query (A)", document_name="document (B)"),
                    key=f"{key}_alignment")
    st.caption("Every token of A as a query (rows) against every token of B as a document (columns); the box in each "
               "row is that query token's best match, whose similarity is its share of the score"
               + (" (over the query's token count, for MeanMaxSim)" if explained.similarity == "meanmaxsim" else "")
               + f". The shares sum to the {name} exactly: {explained.typed_share:.4f} from A's own tokens + "
               f"{explained.expansion_share:.4f} from the query expansion ⟨e⟩ + {explained.prompt_share:.4f} from the "
               f"prompt ⟨p⟩ = {explained.score:.4f}. Swap A and B for the other direction: the score is not "
               "symmetric.")
    table = alignment_table(explained)
    st.dataframe(table, hide_index=True, column_config={
        "similarity": st.column_config.NumberColumn(format="%.4f"),
        "share": st.column_config.NumberColumn(format="%.4f"),
        "share of the score": st.column_config.NumberColumn(format="percent")})
    csv_download(table, "alignment.csv", index=False, key=f"{key}_alignment_csv")


def dense_panel(model: LoadedModel, settings: Settings, a: str, b: str, *, key: str,
                sides: tuple[Settings, Settings] | None = None) -> None:
    """A dense model's explanation of the pair (a, b) under the sidebar's settings, with a layer slider of its own:
    the exact split of the cosine over token pairs, and integrated gradients for any pooling."""
    layer = layer_slider("Explain at layer", 0, model.num_layers, layer_used(settings.layer, model.num_layers),
                         key=f"{key}_layer", help="See how the explanation changes with depth (0 = embeddings).")
    try:
        explanation = explanation_of(model.fingerprint, a, b, settings.pooling, layer, settings.max_length,
                                     settings.prompt, _model=model)
    except NoExactSplit as err:
        st.info(f"{err} Open “Attribution through the network” below.")
    except ValueError as err:
        st.warning(str(err))
        return
    else:
        _exact(explanation, key)
    with st.expander("Attribution through the network (integrated gradients)"):
        _attribution(model, settings, a, b, layer, key)


def _select_cell(chart_key: str, keys: tuple[str, str]) -> None:
    """A click on a heatmap cell picks its row's and column's texts."""
    points = st.session_state[chart_key].selection.points
    if points and points[0].get("customdata") is not None:
        row, col = points[0]["customdata"][:2]
        st.session_state[keys[0]], st.session_state[keys[1]] = int(row), int(col)


def pair_keys(texts: Sequence[str]) -> tuple[str, str]:
    return f"sim_why_a_{texts_key(texts)}", f"sim_why_b_{texts_key(texts)}"


def cell_picker(chart_key: str, texts: Sequence[str]) -> Callable[[], None]:
    """The `on_select` callback of the heatmap drawn under `chart_key`."""
    return lambda: _select_cell(chart_key, pair_keys(texts))


def named_pair(text: str | None, count: int) -> tuple[int, int] | None:
    """The pair a link names as "i,j" (line numbers from 1), as picker indices; None when it names none of these."""
    try:
        a, b = (int(part) - 1 for part in (text or "").split(","))
    except ValueError:
        return None
    return (a, b) if 0 <= a < count and 0 <= b < count else None


def _pickers_from_link(keys: tuple[str, str], count: int) -> None:
    """A link's (or a lesson's) `sim_pair` sets the pickers once for these texts; later picks are the user's."""
    named = named_pair(st.query_params.get(PAIR_KEY), count)
    if named is not None and st.session_state.get(f"_{PAIR_KEY}_applied") != (keys, named):
        st.session_state[keys[0]], st.session_state[keys[1]] = named
        st.session_state[f"_{PAIR_KEY}_applied"] = (keys, named)


def pair_section(model: LoadedModel, settings: Settings, texts: Sequence[str], matrix, metric: Metric,
                 explain: Explain) -> None:
    """"Why are these two similar?" under a heatmap: two pickers (a click on a cell or a link sets them) and the
    model's kind's explanation (`explain`: ui.kinds); a pair other than the closest is kept in the URL."""
    st.subheader("Why are these two similar?")
    if len(texts) < 2:
        st.info("Add a second text to explain a pair.")
        return
    keys, closest = pair_keys(texts), closest_pair(matrix, metric)
    names = {i: f"{i + 1}. {shorten(text, 70)}" for i, text in enumerate(texts)}
    _pickers_from_link(keys, len(texts))
    st.session_state.setdefault(keys[0], closest[0])
    st.session_state.setdefault(keys[1], closest[1])
    from ui.kinds import views_of  # ui.kinds names this module's panels: imported here, where it is complete

    first, second = views_of(model).pair_names
    left, right = st.columns(2)
    a = left.selectbox(first, list(names), format_func=names.__getitem__, key=keys[0])
    b = right.selectbox(second, list(names), format_func=names.__getitem__, key=keys[1])
    if (a, b) == tuple(closest):
        if PAIR_KEY in st.query_params:
            del st.query_params[PAIR_KEY]
    else:
        st.query_params[PAIR_KEY] = f"{a + 1},{b + 1}"
    st.caption("Click a cell of the heatmap above, or pick two texts; it opens on the closest pair.")
    explain(model, settings, texts[a], texts[b], key="sim_why")
