"""Why a reranker scored a pair: one component for every place that shows one (a reranked hit on Retrieval, a pair on
Evaluation's Rerank diagnostics, the end of lesson 19). The query's and the text's tokens coloured by their share of
the logit's change from the baseline (integrated gradients, core.analysis.rerank_attribution), the deletion check that
says whether to trust the colours, and, with a second text of the query, what lifted one above the other."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.analysis.rerank_attribution import (
    GAP_SHARE,
    RANDOM_ORDERS,
    Deletion,
    RerankAttribution,
    RerankComparison,
    refusal,
)
from core.models.reranker import LoadedReranker
from core.plots.rerank_explanation import deletion_figure, token_grid
from ui.components.downloads import csv_download
from ui.work.background import rerank_explanation_job, waiting


def _grid(found: RerankAttribution, *, text_name: str):
    positions = found.positions("query") + found.positions("text")
    names = {"query": "query", "text": text_name}
    return token_grid([found.tokens[i] for i in positions], found.attributions[positions],
                      [names[found.parts[i]] for i in positions],
                      title=f"Score {found.score:.4f}: the tokens' shares of the logit's change from the baseline "
                            f"({found.change:+.4f})")


def _pair(reranker: LoadedReranker, found: RerankAttribution, *, text_name: str, key: str) -> None:
    if found.truncated:
        st.info(f"The query and {text_name} together are longer than {reranker.model_id} reads "
                f"({reranker.max_length} tokens), so it cut them: the score and its explanation cover the tokens it "
                "read.")
    score, logit, baseline, gap, steps = st.columns(5)
    score.metric("Score", f"{found.score:.4f}", help="The reranker's score of the pair after its activation, as "
                 "CrossEncoder.predict gives it.")
    logit.metric("Logit", f"{found.logit:.4f}", help="The score before the activation: what the attributions split.")
    baseline.metric("Baseline logit", f"{found.baseline_logit:.4f}",
                    help="The logit of the baseline: the same input with every word replaced by padding.")
    share = abs(found.gap) / abs(found.change) if found.change else float("inf")
    gap.metric("Completeness gap", f"{found.gap:+.1e}",
               help="The attributions' sum minus the logit's change from the baseline: 0 when the split is complete"
                    + (f"; here {share:.2%} of the change." if found.change else "."))
    steps.metric("Steps", f"{found.steps}", help="Integrated-gradients steps: raised (16, 32, 64, …) until the gap "
                 f"is under {GAP_SHARE:.0%} of the change, or the cap is reached.")
    if not found.change:
        st.warning("The logit does not move from the baseline's, so there is no change to split among the tokens.")
    elif not found.converged:
        st.warning(f"After {found.steps} steps (the cap) the gap is still {share:.1%} of the logit's change from the "
                   "baseline: read the colours as approximate.")
    st.plotly_chart(_grid(found, text_name=text_name), key=f"{key}_tokens")
    st.caption(f"The query and {text_name} as the reranker reads them, together. Each token is coloured by its "
               "share of the attribution: integrated gradients of the logit (the score before its activation) over "
               "the word embeddings, from a baseline where every word is padding. Red raised the score above the "
               "baseline's, blue lowered it; all the attributions add up to the logit's change, within the gap. "
               "[CLS] and [SEP] stay in the baseline, so they get 0.")
    csv_download(found.frame(), "reranker-attributions.csv", index=False, key=f"{key}_csv")


def _deletion(check: Deletion, *, text_name: str, key: str) -> None:
    st.markdown("**Is the explanation faithful?**")
    if check.better_than_random:
        st.success(check.verdict())
    else:
        st.warning(check.verdict())
    st.plotly_chart(deletion_figure(check.removed, check.attributed, check.random,
                                    title=f"The score as {text_name}'s tokens are removed"), key=f"{key}_deletion")
    st.metric("Area between the curves", f"{check.area:+.4f}",
              help="Above 0: removing the most attributed tokens first lowers the score faster than random orders.")
    st.caption(f"The deletion check: {text_name}'s tokens are removed from the pair one at a time, most attributed "
               f"first (red) and in {RANDOM_ORDERS} random orders (grey, drawn from a fixed seed), and the pair is "
               "scored again each time. An explanation that found what the score rests on makes the red curve fall "
               "first; the shaded area between it and the random orders' mean is the number above, in score units "
               "over the share of the text removed.")
    csv_download(check.frame(), "reranker-deletion.csv", index=False, key=f"{key}_deletion_csv")


def _versus(compared: RerankComparison, *, names: tuple[str, str], key: str) -> None:
    first, second = names
    above = compared.logit_difference >= 0
    st.markdown(f"**Why {first if above else second} scores above {second if above else first}**")
    difference, logits, baselines = st.columns(3)
    difference.metric("Score difference", f"{compared.score_difference:+.4f}",
                      help=f"The score of {first} minus that of {second}.")
    logits.metric("Logit difference", f"{compared.logit_difference:+.4f}")
    baselines.metric("Baselines' difference", f"{compared.baseline_difference:+.4f}",
                     help="The two baselines' logits differ only by the texts' lengths: this part of the difference "
                          "belongs to no token.")
    frame = compared.frame()
    shown = frame[~frame["part"].str.endswith("special")]
    labels = {"query": "query", "first text": first, "second text": second, "first query": f"query ({first})",
              "second query": f"query ({second})"}
    st.plotly_chart(token_grid(shown["token"].tolist(), shown["attribution"].to_numpy(dtype=np.float64),
                               [labels[part] for part in shown["part"]],
                               title=f"The logit difference ({compared.logit_difference:+.4f}) split over both "
                                     "pairs' tokens"), key=f"{key}_difference")
    st.caption(f"The attributions of the difference between the two logits: {first}'s tokens as they are, "
               f"{second}'s negated, so red is what lifted {first} and blue what lifted {second}; the query's tokens, "
               "read in both pairs, carry the difference of their two attributions. With the baselines' difference "
               "and the two gaps they add up to the logit difference.")
    csv_download(frame, "reranker-difference.csv", index=False, key=f"{key}_difference_csv")


def rerank_explanation(reranker: LoadedReranker, query: str, text: str, *, key: str, versus: str | None = None,
                       names: tuple[str, str] = ("the text", "the other text")) -> None:
    """Why `reranker` scored (query, text), with the deletion check; with `versus`, why one of the two texts scores
    above the other (`names` say the two texts in sentences). Computed in the server's queue of heavy work."""
    refused = refusal(reranker, query, text, *([versus] if versus is not None else []))
    if refused is not None:
        st.info(refused)
        return
    found = rerank_explanation_job(reranker, query, text, versus)
    if waiting(found):
        return
    _pair(reranker, found.pair, text_name=names[0], key=key)
    _deletion(found.deletion, text_name=names[0], key=key)
    if found.versus is not None:
        _versus(found.versus, names=names, key=key)
