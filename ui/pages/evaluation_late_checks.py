"""Evaluation's model checks for a late-interaction model: what pooling its documents' token vectors saves in index size
and costs in retrieval (late interaction's version of the Dimensions check), and what its query expansion adds; each
from token vectors that the server's queue encodes once per model and role."""

from __future__ import annotations

import streamlit as st

from core.evaluation.late_variants import POOL_FACTORS, SPEARMAN, LateEmbedded, sts_texts
from core.evaluation.retrieval import RetrievalTask
from core.evaluation.sts import PairRows
from core.jobs import Job
from core.models.loading import LoadedModel
from core.plots.evaluation import pooling_figure, variant_figure
from core.settings import Settings
from ui.pages.evaluation_checks import METRICS, show_table
from ui.pages.evaluation_tasks import usable_task
from ui.state.persist import kept
from ui.work.background import corpus_job, job_status, late_expansion_job, late_pooling_job, waiting
from ui.work.cache import pair_rows_of

TOKEN_POOLING, EXPANSION = "Token pooling", "Query expansion"


def late_embedded(model: LoadedModel, task: RetrievalTask, sts: PairRows) -> LateEmbedded | None:
    """The token vectors the checks read, through the server's queue: the task's queries and corpus, STS-B's sentence
    1s as queries and sentence 2s as documents; None (each job's line shown) while it encodes them."""
    first, second = sts_texts(sts)
    parts = [corpus_job(model, texts, Settings(model_id=model.model_id, role=role)) for texts, role in
             ((task.queries, "query"), (task.corpus, "document"), (first, "query"), (second, "document"))]
    pending = [part for part in parts if isinstance(part, Job)]
    for job in pending:
        job_status(job)
    return None if pending else LateEmbedded(*parts)


def pooling_check(task: RetrievalTask, sts: PairRows, model: LoadedModel) -> None:
    vectors = late_embedded(model, task, sts)
    if vectors is None:
        return
    frame = late_pooling_job(model, task, vectors, sts)
    if waiting(frame):
        return
    st.plotly_chart(pooling_figure(frame, [*METRICS, SPEARMAN]), key="ev_pooling_chart")
    baked = model.late_pipeline.token_pooling
    st.caption("Each point pools every document's token vectors as sentence-transformers' HierarchicalTokenPooling "
               "does when passed to encode_document: Ward clustering of the tokens after the first, each cluster "
               f"replaced by its mean, about 1 in f vectors kept at pool factor f ({', '.join(map(str, POOL_FACTORS))}"
               "; 1 keeps every token). Queries are never pooled; STS-B's sentence 2s are, as documents. The index is "
               "the corpus's token vectors as float32." +
               (f" {model.model_id} pools its documents already ({baked}): these factors pool further on top of "
                "that." if baked else ""))
    show_table(frame, "check-token-pooling.csv")


def expansion_check(task: RetrievalTask, sts: PairRows, model: LoadedModel) -> None:
    expansion = model.late_pipeline.expansion
    if expansion is None:
        st.info(f"{model.model_id} does not expand its queries (its Transformer has no query_expansion), so there is "
                "nothing to switch off.")
        return
    vectors = late_embedded(model, task, sts)
    if vectors is None:
        return
    frame = late_expansion_job(model, task, vectors, sts)
    if waiting(frame):
        return
    st.plotly_chart(variant_figure(frame, "query expansion", [*METRICS, SPEARMAN]), key="ev_expansion_chart")
    padded = (f"every query to {expansion['length']} tokens" if expansion["strategy"] == "fixed" else
              f"a query shorter than {expansion['length']} tokens to that length")
    st.caption(f"{model.model_id} pads {padded} with expansion tokens, whose vectors a trained ColBERT uses for "
               "added or re-weighted terms (its query augmentation); they count in the score like typed ones. "
               "'off' encodes the queries again with a copy of the model whose query_expansion is None (the loaded "
               "model is not changed); documents are never expanded, so both rows read the same ones.")
    show_table(frame, "check-query-expansion.csv")


CHECKS = {TOKEN_POOLING: pooling_check, EXPANSION: expansion_check}


def late_checks_section(model: LoadedModel) -> None:
    check = kept(st.radio, "Check", key="ev_late_check", url=True, default=TOKEN_POOLING, options=list(CHECKS),
                 horizontal=True, help="Each is measured on the task below and on STS-B, from token vectors encoded "
                                       "once.")
    chosen = usable_task()
    if chosen is None:
        return
    task, split = chosen
    CHECKS[check](task, pair_rows_of(split or "dev"), model)
