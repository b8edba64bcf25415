"""Evaluation's retrieval configurations: every chosen model × pooling × layer (a sparse or late-interaction model is
one configuration), the lexical baselines, hybrids of two of them fused by reciprocal rank fusion, and any of them
with its top N reranked by a cross-encoder, each scored on the task."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import streamlit as st

from core.analysis.lexical import BASELINES, Baseline
from core.encoding.prompts import role_prompts
from core.evaluation.grid import LAST, configuration_grid
from core.evaluation.rerank import DEPTHS
from core.evaluation.retrieval import RetrievalTask, Scored, TaskResult, lexical_stage, model_stage
from core.kinds import kind_of
from core.models.catalog import LATE
from core.settings import POOLINGS, Settings
from ui.components.model_download import ready_or_download
from ui.components.rerank import reranker_choice
from ui.state.persist import kept, kept_value, set_kept
from ui.work.background import corpus_job, rerank_sweep_job, waiting
from ui.work.cache import available_ids, cached_model, embedding_scores, fused_scores, lexical_index, lexical_scores
from ui.work.progress import progress_bar

MAX_CONFIGURATIONS = 12
Stages = dict[str, tuple[tuple, Callable[[], Scored]]]  # label -> (what the stage depends on, how to build it)


def _models(settings: Settings) -> tuple[dict, list[str]]:
    left, middle = st.columns(2)  # two to a row: four columns clip the chips ("ult" for "default")
    model_ids = kept(left.multiselect, "Models", key="ev_models", url=True, default=[settings.model_id],
                     options=sorted(set(available_ids("dense", "sparse", LATE)) | {settings.model_id}),
                     help="Dense, sparse and late-interaction models; a sparse or late-interaction model is one "
                          "configuration (pooling and layer do not apply to it).")
    poolings = kept(middle.multiselect, "Poolings", key="ev_poolings", url=True, default=[settings.pooling],
                    options=POOLINGS)
    models = {}
    for model_id in model_ids:
        if not ready_or_download(model_id, key=f"ev_models_{model_id}",
                                 meanwhile=f"{model_id}'s configurations join the others once it is here."):
            continue
        try:
            models[model_id] = cached_model(model_id, settings.device)
        except Exception as err:  # a model that fails to load must not take the page down
            st.warning(f"Skipped {model_id}: {err}")
    return models, poolings


def evaluate_all(task: RetrievalTask, ks: list[int], settings: Settings,
                 without_prompts: bool) -> dict[str, TaskResult]:
    """Every chosen configuration, baseline, hybrid and reranked list scored on the task (cached per task, k values
    and vectors), each model's queries and documents with its own prompts unless `without_prompts` (a
    late-interaction model always reads them with its own)."""
    models, poolings = _models(settings)
    right, far = st.columns(2)
    layers = kept(right.multiselect, "Layers", key="ev_layers", url=True, default=[LAST], options=[LAST, *range(13)],
                  help="0 is the embedding layer; a layer a model lacks is skipped.")
    baselines: list[Baseline] = kept(far.multiselect, "Baselines", key="ev_baselines", url=True,
                                     default=list(BASELINES), options=list(BASELINES), format_func=BASELINES.get)
    depths = {i: m.num_layers if kind_of(m).applies.layer else None for i, m in models.items()}
    grid, total = configuration_grid(depths, poolings, layers, limit=MAX_CONFIGURATIONS)
    if total > len(grid):
        st.warning(f"{total} model configurations chosen; only the first {len(grid)} are evaluated.")
    results: dict[str, TaskResult] = {}
    stages: Stages = {}
    for cell in grid:
        model = models[cell.model_id]
        options = settings.with_(model_id=model.model_id, pooling=cell.pooling, layer=cell.layer,
                                 truncate_dim=model.kept_dims(settings.truncate_dim, cell.pooling))
        prompts = role_prompts(model.pipeline, use=not without_prompts)
        corpus = corpus_job(model, task.corpus, options.with_(prompt=prompts[1], role="document"))
        if waiting(corpus):  # the baselines and the configurations ready show meanwhile
            continue
        bar = lambda: progress_bar(f"Embedding {len(task.queries):,} queries for {cell.label}")  # noqa: E731
        results[cell.label] = embedding_scores(task.digest, tuple(ks), model.fingerprint, options, prompts, model,
                                               task, bar)
        stages[cell.label] = ((model.fingerprint, options, prompts),
                              lambda model=model, options=options, prompts=prompts:
                              model_stage(model, task, options, prompts=prompts))
    for baseline in baselines:
        try:
            results[BASELINES[baseline]] = lexical_scores(task.digest, tuple(ks), baseline, task)
        except ValueError as err:
            st.warning(f"{BASELINES[baseline]}: {err}")
            continue
        stages[BASELINES[baseline]] = ((baseline,), lambda baseline=baseline:
                                       lexical_stage(lexical_index(baseline, task.corpus), task))
    labels = [cell.label for cell in grid] + [BASELINES[k] for k in baselines]
    return results | hybrids(task, ks, stages, labels) | reranked(task, ks, stages, labels, settings.device)


def hybrids(task: RetrievalTask, ks: list[int], stages: Stages, labels: list[str]) -> dict[str, TaskResult]:
    """The hybrids chosen among the configurations (`labels`): two lists fused by reciprocal rank fusion (each one's
    top 100), scored as one more configuration once both are (`stages`: the ones scored)."""
    pairs = [f"{a} + {b}" for a, b in combinations(labels, 2)]
    if not pairs:
        return {}
    parts = dict(zip(pairs, combinations(labels, 2)))
    models = [name for name in labels if name not in BASELINES.values()]
    default = [f"{models[0]} + BM25"] if models and f"{models[0]} + BM25" in parts else []
    asked = kept_value("ev_hybrids")
    if asked is not None:  # pairs of configurations no longer chosen drop out
        set_kept("ev_hybrids", [pair for pair in asked if pair in parts])
    chosen = kept(st.multiselect, "Hybrids (reciprocal rank fusion)", key="ev_hybrids", url=True,
                  default=default, options=pairs,
                  help="Two of the lists above fused: each text scores 1 / (60 + its rank) in each list's top 100, "
                       "summed, as hybrid search (a dense model with BM25 or a sparse model) does.")
    found = {}
    for name in chosen:
        first, second = parts[name]
        if first not in stages or second not in stages:  # one is still being embedded: its line says so above
            continue
        found[f"hybrid: {name}"] = fused_scores(task.digest, tuple(ks), stages[first][0], stages[second][0],
                                                stages[first][1], stages[second][1], task)
    return found


def reranked(task: RetrievalTask, ks: list[int], stages: Stages, labels: list[str],
             device: str) -> dict[str, TaskResult]:
    """The configurations chosen to be reranked among `labels`: each one's top N per query read again by a
    cross-encoder, in the order it gives (the Rerank section's sweep, which this shares), scored as one more
    configuration once its list is (`stages`: the ones scored)."""
    asked = kept_value("ev_reranked")
    if asked is not None:  # configurations no longer chosen drop out
        set_kept("ev_reranked", [name for name in asked if name in labels])
    chosen = kept(st.multiselect, "Reranked by a cross-encoder", key="ev_reranked", url=True, default=[],
                  options=labels, help="Each chosen list's top N read again by a cross-encoder, which scores the query "
                                       "and each text together; the texts below the top N keep their order.")
    if not chosen:
        return {}
    left, right = st.columns(2)
    reranker = reranker_choice(key="ev_cfg_reranker", device=device, where=left)
    depth = kept(right.selectbox, "Top N reranked", key="ev_rerank_n", url=True, default=20, options=list(DEPTHS))
    if reranker is None:
        return {}
    found = {}
    for name in chosen:
        if name not in stages:  # still being embedded: its line says so above
            continue
        sweep = rerank_sweep_job(task, stages[name][0], stages[name][1], reranker, ks)
        if waiting(sweep):
            continue
        found[f"reranked: {name} · top {depth} by {reranker.model_id}"] = sweep.reranked[depth]
    return found
