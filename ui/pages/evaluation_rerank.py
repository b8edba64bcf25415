"""Evaluation's Rerank section: a first stage (the sidebar's model or a lexical baseline) with its top N reordered
by a reranker, for N from 1 to 50: what a deeper rerank buys (the metrics) and costs (milliseconds per query); and
the reranker's own STS-B correlation beside the model's."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from core.analysis.lexical import BASELINES, Baseline
from core.encoding.prompts import role_prompts
from core.evaluation.rerank import DEPTHS, cross_correlation
from core.evaluation.retrieval import RetrievalTask, Scored, lexical_stage, model_stage
from core.evaluation.sts import spearman, sts_frame
from core.jobs import Job
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.models.reranker import LoadedReranker
from core.plots.labels import shorten
from core.plots.rerank import depth_figure
from core.settings import Settings
from ui.components.columns import three_decimals
from ui.components.downloads import csv_download
from ui.components.rerank import reranker_choice
from ui.components.rerank_explain import rerank_explanation
from ui.pages.evaluation_tasks import usable_task
from ui.state.persist import kept
from ui.work.background import corpus_job, cross_sts_job, rerank_sweep_job, waiting
from ui.work.cache import lexical_index
from ui.work.progress import progress_bar


def _first_stage(task: RetrievalTask, name: str, settings: Settings,
                 model: LoadedModel) -> tuple[tuple, Callable[[], Scored]] | Job:
    """What the first stage depends on and how to build it, once its corpus is embedded (else the job embedding
    it)."""
    found = next((baseline for baseline, label in BASELINES.items() if label == name), None)
    if found is not None:
        baseline: Baseline = found
        return (baseline,), lambda: lexical_stage(lexical_index(baseline, task.corpus), task)
    prompts = role_prompts(model.pipeline)
    corpus = corpus_job(model, task.corpus, settings.with_(prompt=prompts[1], role="document"))
    if isinstance(corpus, Job):
        return corpus
    return (model.fingerprint, settings, prompts), lambda: model_stage(model, task, settings, prompts=prompts)


def rerank_section(settings: Settings, model: LoadedModel) -> None:
    chosen = usable_task()
    if chosen is None:
        return
    task = chosen[0]
    left, right = st.columns(2)
    reranker = reranker_choice(key="ev_rerank", device=settings.device, where=left)
    first = kept(right.selectbox, "First stage", key="ev_rerank_first", url=True, default=model.model_id,
                 options=[model.model_id, *BASELINES.values()], must_be_option=True,
                 help="The ranking whose top N the reranker reads again: the sidebar's model or a lexical baseline.")
    if reranker is None:
        return
    sts = cross_sts_job(reranker, "dev")  # queued now, so it runs right after the rerank below
    stage = _first_stage(task, first, settings, model)
    if waiting(stage):
        return
    sweep = rerank_sweep_job(task, *stage, reranker)
    if waiting(sweep):
        return
    frame = sweep.frame()
    st.plotly_chart(depth_figure(frame), key="ev_rerank_chart")
    st.caption(f"{first} alone (0), then with its top N reordered by {reranker.model_id}, for N = "
               f"{', '.join(map(str, DEPTHS))}: the lines are what a deeper rerank buys, the grey bars what it costs "
               f"(the reranker's time per query, {1000 * sweep.seconds_per_pair:.1f} ms a pair here, measured over "
               f"{sweep.pairs:,} pairs). A reranker helps a weak first stage most; a lightly trained one can lower "
               "a strong first stage's scores.")
    st.dataframe(frame, hide_index=True, column_config={**three_decimals(frame.columns[1:-1]),
                                                        "ms per query": st.column_config.NumberColumn(format="%.1f")})
    csv_download(frame, "rerank-by-depth.csv", index=False, key="ev_rerank_csv")
    pair_why(task, reranker)
    sts_comparison(settings, model, reranker, sts)


def pair_why(task: RetrievalTask, reranker: LoadedReranker) -> None:
    """One of the task's queries with a text relevant to it, explained: why the reranker scored the pair so, and,
    with a second text typed in, why one scores above the other."""
    st.subheader("Why the reranker scored a pair")
    if not kept(st.toggle, "Explain a query and its relevant text", key="ev_rerank_why", url=True, default=False,
                help="Each token's share of the reranker's score (integrated gradients), checked by deleting tokens."):
        return
    answered = [q for q, relevant in enumerate(task.relevant) if relevant]
    if not answered:
        st.info("No query of this task has a relevant text in its corpus, so there is no pair to explain.")
        return
    left, right = st.columns(2)
    q = kept(left.selectbox, "Query", key="ev_rerank_why_query", default=answered[0], options=answered,
             must_be_option=True, format_func=lambda i: shorten(task.queries[i], 90))
    texts = sorted(task.relevant[q])
    relevant = kept(right.selectbox, "Relevant text", key="ev_rerank_why_text", default=texts[0], options=texts,
                    must_be_option=True, format_func=lambda i: shorten(task.corpus[i], 90))
    versus = kept(st.text_input, "Compared with (optional): another text for the same query",
                  key="ev_rerank_why_versus", default="",
                  help="Why the relevant text scores above (or below) it.").strip()
    rerank_explanation(reranker, task.queries[q], task.corpus[relevant], key="ev_rerank_why",
                       versus=versus or None, names=("the relevant text", "the other text"))


def sts_comparison(settings: Settings, model: LoadedModel, reranker: LoadedReranker,
                   found: pd.DataFrame | Job) -> None:
    st.subheader("STS-B: reading two sentences together")
    if waiting(found):
        return
    with progress_bar("Embedding the STS-B dev sentences") as progress:
        own = spearman(sts_frame(model, "dev", pooling=settings.pooling, layer=settings.layer,
                                 max_length=settings.max_length, progress=progress))
    crossed = cross_correlation(found)["spearman_reranker"]
    left, right = st.columns(2)
    made = "two texts' token vectors" if kind_of(model).token_vectors else "two vectors"
    left.metric(f"{model.model_id} ({made} compared)", f"{own:.4f}")
    right.metric(f"{reranker.model_id} (the pair read together)", f"{crossed:.4f}", delta=f"{crossed - own:+.4f}",
                 delta_color="off")
    st.caption(f"STS-B dev Spearman of each: the bi-encoder compares {made} made separately; the cross-encoder "
               "scores each pair with both sentences in view, as CrossEncoderCorrelationEvaluator measures it.")
