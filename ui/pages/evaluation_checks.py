"""Evaluation's model checks: what prompts, fewer dimensions and a corpus stored at lower precision cost on the
chosen task, each derived from float vectors that the server's queue encodes once per model, settings and prompt."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.evaluation.quantization import RESCORE_MULTIPLIER, CalibrationError
from core.evaluation.retrieval import RetrievalTask
from core.evaluation.sts import PairRows
from core.evaluation.variants import (
    TRY_INSTRUCTION,
    Embedded,
    Prompts,
    default_dimensions,
    dimension_check,
    measure,
    model_check,
    own_prompts,
    parse_dimensions,
    prompt_check,
    prompt_variants,
    quantization_check,
)
from core.jobs import Job
from core.models.card import matryoshka_dims
from core.models.catalog import ModelUnavailable
from core.models.loading import LoadedModel
from core.plots.evaluation import dimension_figure, variant_figure
from core.settings import Settings
from core.training.distill import DEFAULT_PCA_DIMS, static_models_of, teacher_of
from core.training.finetune import FinetuneError
from ui.components.columns import three_decimals
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.pages.evaluation_tasks import usable_task
from ui.state.persist import kept
from ui.work.background import corpus_job, distill_job, job_status, waiting
from ui.work.cache import cached_catalog, cached_model, check_table, pair_rows_of

PROMPTS, DIMENSIONS, QUANTISATION, STATIC = "Prompts", "Dimensions", "Quantisation", "Static model"
SPEED_SAMPLE = 500  # sentences encoded to measure texts/s
METRICS = ["recall@1", "recall@10", "mrr@10", "ndcg@10"]
SPEARMAN = "STS-B spearman"


def embedded(model: LoadedModel, task: RetrievalTask, sts: PairRows, settings: Settings,
             variants: dict[str, Prompts]) -> dict[str, Embedded] | None:
    """`embed_variant`'s vectors for each variant through the server's queue: None (each job's line shown once,
    though variants share it) while it embeds them."""
    parts = {name: [corpus_job(model, texts, settings.with_(prompt=prompt))
                    for texts, prompt in zip((task.queries, task.corpus, sts.sentences), prompts)]
             for name, prompts in variants.items()}
    pending = {id(part): part for found in parts.values() for part in found if isinstance(part, Job)}
    for job in pending.values():
        job_status(job)
    return None if pending else {name: Embedded(*found) for name, found in parts.items()}


def show_table(frame: pd.DataFrame, name: str) -> None:
    """A check's table with its numbers formatted, and its CSV download."""
    number = st.column_config.NumberColumn
    st.dataframe(frame, hide_index=True, column_config={
        **three_decimals(METRICS, SPEARMAN), "ms per query": number(format="%.2f"),
        "texts/s": number(format="%.0f"), "index bytes": number(format="localized"),
        **{c: number(format="%.1f") for c in ("MB", "vectors per text", "query vectors", "expansion vectors")}})
    csv_download(frame, name, index=False)


def prompts_check(task: RetrievalTask, sts: PairRows, settings: Settings, model: LoadedModel) -> None:
    query, document, _ = own_prompts(model.pipeline)
    typed = kept(st.text_input, "An instruction to try before each query", key="ev_check_prompt", url=True,
                 default="" if query or document else TRY_INSTRUCTION,
                 help="Queries and both STS-B sentences get it; documents keep the model's document prompt.")
    variants = prompt_variants(model.pipeline, typed)
    if len(variants) == 1:
        st.info(f"{model.model_id} has no prompts: type an instruction above to measure what one changes.")
        return
    vectors = embedded(model, task, sts, settings, variants)
    if vectors is None:
        return
    frame = check_table(("prompts", task.digest, model.fingerprint, settings, tuple(variants.items()), sts.split),
                        lambda: prompt_check(task, vectors, sts))
    st.plotly_chart(variant_figure(frame, "prompts", [*METRICS, SPEARMAN]), key="ev_prompts_chart")
    st.caption(("The model's query prompt is " + (repr(query) if query else "empty") + ", its document prompt "
                + (repr(document) if document else "empty") + ". " if query or document else "")
               + "STS-B is symmetric: both sentences of a pair get the query's prompt, as MTEB gives them. "
               "Instruction-tuned models (e5, bge, Qwen3-Embedding) lose without theirs; a model trained without "
               "prompts usually gains nothing from one.")
    show_table(frame, "check-prompts.csv")


def dimensions_check(task: RetrievalTask, sts: PairRows, settings: Settings, model: LoadedModel) -> None:
    full = settings.with_(truncate_dim=None)
    found = embedded(model, task, sts, full, {"own": own_prompts(model.pipeline)})
    if found is None:
        return
    vectors = found["own"]
    text = kept(st.text_input, "Dimensions to keep", key="ev_check_dims", url=True,
                default=", ".join(map(str, default_dimensions(vectors.width))),
                help="The first d dimensions of each vector, as sentence-transformers' truncate_dim keeps them.")
    try:
        dims = parse_dimensions(text, vectors.width)
    except ValueError as err:
        st.error(str(err))
        return
    frame = check_table(("dimensions", task.digest, model.fingerprint, full, tuple(dims), sts.split),
                        lambda: dimension_check(task, vectors, dims, sts))
    st.plotly_chart(dimension_figure(frame, [*METRICS, SPEARMAN]), key="ev_dims_chart")
    trained = matryoshka_dims(model.folder)
    st.caption("Each point keeps only the first d dimensions of every vector (cosine, so renormalised). "
               + (f"{model.model_id} was trained for truncation: its card lists Matryoshka dimensions "
                  f"{', '.join(map(str, trained))}." if trained else
                  f"{model.model_id}'s card declares no Matryoshka dimensions: it was not trained to be truncated, "
                  "so the curve shows what cutting costs a model trained at full size. A model trained with "
                  "MatryoshkaLoss (its card lists matryoshka_dims) keeps more at small sizes."))
    show_table(frame, "check-dimensions.csv")


def quantisation_check(task: RetrievalTask, sts: PairRows, settings: Settings, model: LoadedModel) -> None:
    found = embedded(model, task, sts, settings, {"own": own_prompts(model.pipeline)})
    if found is None:
        return
    vectors = found["own"]
    try:
        frame = check_table(("quantisation", task.digest, model.fingerprint, settings),
                            lambda: quantization_check(task, vectors))
    except CalibrationError as err:
        st.error(f"{err} Choose the STS-B paraphrase task or upload a larger corpus.")
        return
    st.plotly_chart(variant_figure(frame, "precision", METRICS), key="ev_quant_chart")
    st.caption("The corpus stored as sentence-transformers' quantize_embeddings stores it: int8 codes with each "
               "dimension's range taken from the corpus (4× smaller), or one bit per dimension ranked by Hamming "
               f"distance (32× smaller); 'rescored' takes the binary top {RESCORE_MULTIPLIER}×k and reorders them "
               "with the float query against the stored bits, as sentence-transformers documents binary search. "
               "Search time: exact search over the whole corpus on this server, queries quantised included.")
    show_table(frame, "check-quantisation.csv")


def static_pair(model: LoadedModel) -> tuple[str, str | None]:
    """(teacher, static model): the current model and its newest distilled static model, or, for a distilled static
    model, its teacher and itself."""
    teacher = teacher_of(model.model_id)
    if teacher is not None:
        return teacher, model.model_id
    made = static_models_of(model.model_id)
    return model.model_id, made[-1] if made else None


def distil_form(model: LoadedModel) -> None:
    """The button that queues a distillation, and the job's line while it runs (the page reruns when it is done)."""
    if model.static:
        st.info(f"{model.model_id} is a static model whose teacher is not on this machine: choose a transformer "
                "model in the sidebar to distil one from it.")
        return
    left, right = st.columns([1, 2])
    pca = int(kept(left.number_input, "PCA dimensions", key="ev_static_pca", url=True,
                   default=min(DEFAULT_PCA_DIMS, model.hidden_size), min_value=1, max_value=model.hidden_size,
                   help="model2vec reduces each token vector to this many dimensions."))
    right.markdown("&nbsp;")
    if right.button(f"Distil a static model from {model.model_id}", key="ev_distil"):
        st.session_state["ev_distilling"] = pca
    asked = st.session_state.get("ev_distilling")
    if asked is None:
        st.info(f"No static model distilled from {model.model_id} on this machine yet. Distilling embeds each entry "
                "of its vocabulary once (about a minute for a small model on a laptop CPU) and saves the table as a "
                "new model, listed in the sidebar.")
        return
    try:
        made = distill_job(model, asked)
    except FinetuneError as err:
        st.error(str(err))
        return
    if waiting(made):
        return
    del st.session_state["ev_distilling"]
    cached_catalog.clear()
    st.rerun()


def static_check(task: RetrievalTask, sts: PairRows, settings: Settings, model: LoadedModel) -> None:
    teacher_id, static_id = static_pair(model)
    if not ready_or_download(teacher_id, key="ev_static_teacher",  # a teacher from the hub may have left the cache
                             meanwhile="The comparison needs both models."):
        return
    try:
        pair = [cached_model(model_id, settings.device) for model_id in (teacher_id, static_id) if model_id]
    except ModelUnavailable as err:
        st.warning(f"{err} The comparison needs both models.")
        pair = []
    if len(pair) < 2:
        distil_form(model)
        return
    measured = {}
    for other in pair:
        own = settings.with_(model_id=other.model_id, pooling="default", layer=None, truncate_dim=None)
        found = embedded(other, task, sts, own, {"own": own_prompts(other.pipeline)})
        if found is None:
            return
        vectors = found["own"]
        measured[other.model_id] = check_table(("speed", other.fingerprint, own),
                                               lambda: measure(other, vectors, sts.sentences[:SPEED_SAMPLE], own))
    frame = check_table(("static", task.digest, sts.split, tuple(m.fingerprint for m in pair)),
                        lambda: model_check(task, measured, sts))
    st.plotly_chart(variant_figure(frame, "model", [*METRICS, SPEARMAN]), key="ev_static_chart")
    st.caption(f"{static_id} is a static model distilled from {teacher_id} with model2vec: one vector per token of "
               "the vocabulary, looked up and averaged, with no attention and no context. texts/s: encoding "
               f"{SPEED_SAMPLE} STS-B sentences afresh on this server; MB: the weight files.")
    show_table(frame, "check-static.csv")


CHECKS = {PROMPTS: prompts_check, DIMENSIONS: dimensions_check, QUANTISATION: quantisation_check,
          STATIC: static_check}


def checks_section(settings: Settings, model: LoadedModel) -> None:
    check = kept(st.radio, "Check", key="ev_check", url=True, default=DIMENSIONS, options=list(CHECKS),
                 horizontal=True, help="Each is measured on the task below and on STS-B, from vectors encoded once.")
    chosen = usable_task()
    if chosen is None:
        return
    task, split = chosen
    kept_dims = model.kept_dims(settings.truncate_dim, settings.pooling)  # the sidebar's, where the model is wider
    CHECKS[check](task, pair_rows_of(split or "dev"), settings.with_(truncate_dim=kept_dims), model)
