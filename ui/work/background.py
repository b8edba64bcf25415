"""Heavy work in the server's background queue (core.jobs): corpus embeddings that several pages wait for, large
t-SNE and UMAP maps, aligned UMAP pairs, integrated gradients, a live line for each, and the warm-up at start, so
that first contact with Similarity, Retrieval, Evaluation or the map is instant."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable, Sequence
from contextlib import nullcontext
from typing import TypeVar

import numpy as np
import pandas as pd
import scipy.sparse as sp
import streamlit as st
from typing_extensions import TypeIs

from core.analysis.agreement import Agreement, agreement
from core.analysis.attribution import PairAttribution, attribute_pair
from core.analysis.explanation import explain_pair, reference_texts
from core.analysis.index_check import IndexCheck
from core.analysis.index_store import stored_index
from core.analysis.late.index import LateIndex, searched_exactly, stored_late_index
from core.analysis.map.projection import TRUST_POINTS, Projection, ProjectionParams, density_clusters
from core.analysis.map.projection_cache import (
    aligned_key,
    cached_aligned,
    cached_project,
    projection_key,
    read_aligned,
    read_stored,
)
from core.analysis.rerank import Reranked, rerank_hits
from core.analysis.rerank_attribution import RerankExplanation, explain_with_checks
from core.analysis.set_drift import Separability
from core.analysis.vector_index import IndexParams, VectorIndex
from core.data.datasets import Dataset, LateDataset
from core.data.rows import distinct
from core.data.stsb import MAP_SAMPLE_SIZE, Split, load_stsb, stsb_corpus, stsb_sample
from core.deployment import load_config
from core.encoding.late.cache import late_key
from core.encoding.late.matrix import TokenMatrix
from core.evaluation.compared_models import layer_cka
from core.evaluation.index_check import check_index
from core.evaluation.late_variants import (
    POOL_FACTORS,
    LateEmbedded,
    expansion_check,
    pooling_check,
    unexpanded_queries,
)
from core.evaluation.metrics import DEFAULT_KS
from core.evaluation.probing import ProbeReport, probe_texts
from core.evaluation.rerank import DEPTHS, RerankSweep, cross_sts, rerank_task
from core.evaluation.retrieval import RetrievalTask, Scored
from core.evaluation.set_drift import SetDrift, drift_sets, layer_separability
from core.evaluation.sts import PairRows
from core.hashing import array_digest, texts_digest
from core.jobs import JOBS, Job, Progress
from core.kinds import kind_of
from core.maps.space import MapSpace, documents, model_space
from core.models.catalog import DEFAULT_MODEL_ID, UNTRAINED_ID
from core.models.loading import LoadedModel
from core.models.reranker import LoadedReranker
from core.progress import progress_text
from core.settings import Settings
from core.threads import blas_threads, log_forks, one_blas_thread
from core.training.distill import Distilled, distill_static
from ui.work.cache import agreement_of, cached_model, density_of, exact_index_of, projection_of, space_of
from ui.work.progress import encode_corpus

T = TypeVar("T")
BACKGROUND_FROM = 1_000  # texts: a smaller corpus embeds in a second or two, inline
RERANK_INLINE = 50  # pairs a query's rerank reads at once (a second or two); more go to the background queue
DENSITY_BACKGROUND_FROM = 20_000  # map points: HDBSCAN took 1.1 s on 20,000 and 32 s on 100,000
AGREEMENT_BACKGROUND_FROM = 100_000  # texts: above, overlap@10 of the map's sample goes through two HNSW indexes


def _queued(key: Hashable, description: str, run: Callable[[Progress], T], *,
            stored: Callable[[], T | None] | None = None, inline: Callable[[], T] | None = None) -> T | Job:
    """What every heavy piece of work does: a result that is `stored` already, else an `inline` one (work small
    enough to do at once), else the shared background job, whose result comes back once it is done (done but not
    stored, as with a full or cleared cache: no reruns)."""
    found = stored() if stored is not None else None
    if found is not None:
        return found
    if inline is not None:
        return inline()
    job = JOBS.submit(key, description, run)
    return job.result if job.state == "done" else job


def corpus_job(model: LoadedModel, texts: Sequence[str],
               settings: Settings) -> np.ndarray | sp.csr_matrix | TokenMatrix | Job:
    """The corpus's vectors for `settings.role` (a sparse model's CSR rows, a late-interaction model's token vectors)
    when they are stored already (a small corpus is embedded at once), else the shared background job that embeds
    them."""
    kind = kind_of(model)
    return _queued(("embed", kind.name, kind.cache_key(model, texts, settings)),
                   kind.corpus_work(model, len(texts), settings),
                   lambda progress: kind.cached(model, texts, settings, lambda: nullcontext(progress)),
                   stored=lambda: kind.stored_corpus(model, texts, settings),
                   inline=(lambda: encode_corpus(model, texts, settings)) if len(texts) < BACKGROUND_FROM else None)


def map_space_job(model: LoadedModel, texts: Sequence[str], settings: Settings) -> MapSpace | Job:
    """The texts' map space (core.maps.space: one vector a text, as documents, each distinct text once) when their
    vectors are stored already (a small corpus is embedded at once), else the shared background job that embeds
    them."""
    kind, unique, as_documents = kind_of(model), distinct(texts), documents(model, settings)
    key = kind.cache_key(model, unique.texts, as_documents)
    found = _queued(("text vectors", kind.name, key), kind.corpus_work(model, len(unique.texts), as_documents),
                    lambda progress: kind.text_vectors(model, unique.texts, as_documents,
                                                       lambda: nullcontext(progress)),
                    stored=lambda: (None if kind.stored_corpus(model, unique.texts, as_documents) is None
                                    else kind.text_vectors(model, unique.texts, as_documents)),
                    inline=(lambda: encode_corpus(model, unique.texts, as_documents, one_each=True))
                    if len(unique.texts) < BACKGROUND_FROM else None)
    return found if isinstance(found, Job) else space_of(key, texts_digest(texts), found, unique.rows)


def late_pooling_job(model: LoadedModel, task: RetrievalTask, vectors: LateEmbedded,
                     sts: PairRows | None) -> pd.DataFrame | Job:
    """The token-pooling check (Ward clustering of every document at each pool factor: minutes for the STS-B corpus on
    a laptop CPU), in the shared background job."""
    return _queued(("late-pooling", task.digest, late_key(model, task.corpus, "document"), sts.split if sts else None,
                    POOL_FACTORS),
                   f"Pooling the token vectors of {len(vectors.corpus):,} texts at factors "
                   f"{', '.join(map(str, POOL_FACTORS))}",
                   lambda progress: pooling_check(model, task, vectors, sts, progress=progress))


def late_expansion_job(model: LoadedModel, task: RetrievalTask, vectors: LateEmbedded,
                       sts: PairRows | None) -> pd.DataFrame | Job:
    """The query-expansion check: the queries encoded again by a copy of the model with its expansion off (kept on
    disk under keys of their own), in the shared background job."""
    def run(progress: Progress) -> pd.DataFrame:
        unexpanded = unexpanded_queries(model, task, sts, progress_bar=lambda: nullcontext(progress))
        return expansion_check(model, task, vectors, unexpanded, sts)

    return _queued(("late-expansion", task.digest, late_key(model, task.queries, "query"), sts.split if sts else None),
                   f"Encoding {len(task.queries):,} queries without query expansion with {model.model_id}", run)


def rerank_job(reranker: LoadedReranker, query: str, indices: Sequence[int], scores: Sequence[float],
               corpus: Sequence[str], first_stage: str) -> Reranked | Job:
    """A query's first-stage hits reranked: at once for a few pairs, else in the shared background job."""
    run = lambda progress: rerank_hits(reranker, query, indices, scores, corpus, first_stage=first_stage,  # noqa: E731
                                       progress=progress)
    return _queued(("rerank", reranker.fingerprint, query, tuple(indices)),
                   f"Reranking {len(indices)} texts with {reranker.model_id}", run,
                   inline=(lambda: run(None)) if len(indices) <= RERANK_INLINE else None)


def rerank_sweep_job(task: RetrievalTask, stage_key: Hashable, stage: Callable[[], Scored], reranker: LoadedReranker,
                     ks: Sequence[int] = DEFAULT_KS) -> RerankSweep | Job:
    """A task's first stage reranked at every depth (its queries × 50 pairs: minutes on a laptop CPU), scored at `ks`,
    in the shared background job."""
    return _queued(("rerank-sweep", task.digest, stage_key, reranker.fingerprint, tuple(ks)),
                   f"Reranking the top {max(DEPTHS)} of {len(task.queries):,} queries with {reranker.model_id}",
                   lambda progress: rerank_task(task, stage(), reranker, ks=ks, progress=progress))


def cross_sts_job(reranker: LoadedReranker, split: Split) -> pd.DataFrame | Job:
    pairs = texts_digest([f"{pair.sentence1}\t{pair.sentence2}\t{pair.score}" for pair in load_stsb(split)])
    return _queued(("cross-sts", reranker.fingerprint, split, pairs),  # keyed by the pairs it reads, not their name
                   f"Scoring the STS-B {split} pairs with {reranker.model_id}",
                   lambda progress: cross_sts(reranker, split, progress=progress))


def projection_job(vectors: np.ndarray, params: ProjectionParams) -> Projection | Job:
    """The map's projection at once when it is quick (PCA), small or stored; else the shared background job."""
    options = params.options()
    if params.method == "PCA" or len(vectors) < BACKGROUND_FROM:
        return projection_of(vectors, **options)
    key = projection_key(vectors, options)
    return _queued(("project", key), f"{params.method} of {len(vectors):,} points",
                   lambda _: cached_project(vectors, **options), stored=lambda: read_stored(key, len(vectors)))


def aligned_job(a: np.ndarray, b: np.ndarray, params: ProjectionParams) -> tuple[Projection, Projection] | Job:
    """The aligned UMAP pair of two spaces when it is stored, else the shared background job (10 s for 1,500
    points, so always queued)."""
    umap_params = params.umap_options()
    key = aligned_key(a, b, umap_params)
    return _queued(("aligned", key), f"AlignedUMAP of {len(a):,} points in two spaces",
                   lambda _: cached_aligned(a, b, **umap_params), stored=lambda: read_aligned(key, len(a)))


def index_job(dataset: Dataset) -> VectorIndex | Job:
    """The dataset's search index: exact search at once up to the threshold, else the HNSW graph read from disk or
    built in the shared background job (kept on disk, keyed by the vectors' content hash)."""
    info, params = dataset.info, IndexParams.for_rows(len(dataset.vectors))
    key = (info.source, info.version)
    inline = (lambda: exact_index_of(*key, dataset.vectors)) if params.method == "exact" else None
    return _queued(("index", *key), f"Indexing the {info.rows:,} vectors of {info.name}",
                   lambda progress: stored_index(dataset.vectors, params, progress), inline=inline)


def late_index_job(dataset: LateDataset, similarity: str) -> LateIndex | Job:
    """A late-interaction dataset's search: exact MaxSim at once while the corpus is small enough, else the token graph
    read from disk or built in the shared background job (kept on disk, keyed by the dataset's files)."""
    corpus = dataset.corpus
    return _queued(("late-index", dataset.key, similarity),
                   f"Indexing the {corpus.token_count:,} token vectors of {dataset.info.name}",
                   lambda progress: stored_late_index(corpus, dataset.key, similarity, progress),
                   inline=(lambda: LateIndex(corpus, similarity)) if searched_exactly(corpus) else None)


def agreement_job(a: np.ndarray, b: np.ndarray, seed: int) -> Agreement | Job:
    """How far A's and B's spaces of the map's texts agree: at once below AGREEMENT_BACKGROUND_FROM texts, else in
    the shared background job (its HNSW indexes stored on disk)."""
    if len(a) < AGREEMENT_BACKGROUND_FROM:
        return agreement_of(a, b, seed)
    return _queued(("agreement", array_digest(a, {"seed": seed}), array_digest(b)),
                   f"Comparing A and B on {len(a):,} texts",
                   lambda progress: agreement(a, b, overlap_texts=TRUST_POINTS, seed=seed, progress=progress))


def layer_cka_job(a: tuple[Settings, LoadedModel], b: tuple[Settings, LoadedModel],
                  texts: Sequence[str]) -> np.ndarray | Job:
    """Linear CKA of every layer of configuration A (rows) against every layer of B over `texts`, in the shared
    background job (every layer of both models is one forward pass each)."""
    return _queued(("layer-cka", a[1].fingerprint, a[0], b[1].fingerprint, b[0], texts_digest(texts)),
                   f"CKA of every layer of {a[1].model_id} against every layer of {b[1].model_id} on "
                   f"{len(texts):,} texts",
                   lambda progress: layer_cka((a[1], a[0]), (b[1], b[0]), texts, progress))


def density_job(coords: np.ndarray, min_size: int) -> np.ndarray | Job:
    """HDBSCAN labels of the map's points: at once below DENSITY_BACKGROUND_FROM points, else the shared job."""
    return _queued(("hdbscan", array_digest(coords, {"min_size": min_size})), f"HDBSCAN of {len(coords):,} map points",
                   lambda _: density_clusters(coords, min_size=min_size),
                   inline=(lambda: density_of(coords, min_size)) if len(coords) < DENSITY_BACKGROUND_FROM else None)


def attribution_job(model: LoadedModel, a: str, b: str, settings: Settings, layer: int, where: int,
                    steps: int) -> PairAttribution | Job:
    """Integrated gradients of a pair (seconds to minutes): the shared background job, its result once done (the
    queue keeps recent results, so a second look costs nothing)."""
    key = ("attribution", model.fingerprint, a, b, settings.pooling, layer, where, steps, settings.max_length)
    return _queued(key, f"Integrated gradients from layer {where} ({steps} steps)",
                   lambda progress: attribute_pair(model, a, b, pooling=settings.pooling, layer=layer,
                                                   attribution_layer=where, steps=steps,
                                                   max_length=settings.max_length, progress=progress))


def rerank_explanation_job(reranker: LoadedReranker, query: str, text: str,
                           versus: str | None) -> RerankExplanation | Job:
    """Why the reranker scored (query, text): integrated gradients, their deletion check and the comparison with
    `versus` (a second or two for a small reranker): the shared background job, its result once done."""
    return _queued(("rerank-explanation", reranker.fingerprint, query, text, versus),
                   f"Explaining the reranker's score with integrated gradients ({reranker.model_id})",
                   lambda progress: explain_with_checks(reranker, query, text, versus=versus, progress=progress))


def probe_job(model: LoadedModel, texts: Sequence[str], labels: Sequence[str], settings: Settings) -> ProbeReport | Job:
    """What each layer knows about the labels (seconds: the probes, the chance line and the online code at every
    layer): the shared background job, keyed by every setting of the sidebar, its result once done (the queue keeps
    recent results)."""
    key = ("probe", model.fingerprint, settings, texts_digest(texts), texts_digest(labels))
    return _queued(key, f"Probing {len(texts):,} texts at every layer of {model.model_id}",
                   lambda progress: probe_texts(model, texts, labels, settings, progress=progress))


def drift_job(model: LoadedModel, reference: Sequence[str], current: Sequence[str],
              settings: Settings) -> SetDrift | Job:
    """How far `current` has drifted from `reference` (seconds: both sets encoded, a domain classifier's folds and
    1,000 permutations): the shared background job, its result once done."""
    key = ("drift", model.fingerprint, settings, texts_digest(reference), texts_digest(current))
    return _queued(key, f"Comparing {len(reference):,} reference texts with {len(current):,} new ones",
                   lambda _: drift_sets(model, reference, current, settings))


def layer_drift_job(model: LoadedModel, reference: Sequence[str], current: Sequence[str],
                    settings: Settings) -> dict[int, Separability] | Job:
    """The domain classifier at every layer (one encoding pass, a classifier's folds a layer): the shared background
    job, its result once done."""
    key = ("layer drift", model.fingerprint, settings, texts_digest(reference), texts_digest(current))
    return _queued(key, f"Telling the two sets apart at every layer of {model.model_id}",
                   lambda progress: layer_separability(model, reference, current, settings, progress=progress))


def index_check_job(model: LoadedModel, texts: Sequence[str], vectors: np.ndarray, settings: Settings,
                    sample: int) -> IndexCheck | Job:
    """Stored vectors checked against the model (seconds: a sample of their texts embedded again, and again under
    each other pooling where rows are left unexplained): the shared background job, its result once done."""
    key = ("index check", model.fingerprint, settings, texts_digest(texts), array_digest(vectors, {}), sample)
    return _queued(key, f"Checking {min(sample, len(texts)):,} stored vectors against {model.model_id}",
                   lambda _: check_index(model, texts, vectors, settings, sample=sample))


def distill_job(model: LoadedModel, pca_dims: int | None) -> Distilled | Job:
    """A static model distilled from `model` (about a minute for a small model): the shared background job, its
    result once done."""
    return _queued(("distill", model.fingerprint, pca_dims), f"Distilling a static model from {model.model_id}",
                   lambda _: distill_static(model, pca_dims=pca_dims))


def waiting(result: object) -> TypeIs[Job]:
    """Whether `result` is a job still in the server's queue, its live line drawn if so: how a page waits on one
    (`if waiting(found): return`, after which `found` is the result)."""
    if isinstance(result, Job):
        job_status(result)
        return True
    return False


def job_status(job: Job) -> None:
    """A live line for a job: its place in the queue, or its progress; the page reruns when it is done."""

    @st.fragment(run_every=1.0)
    def watch() -> None:
        if job.state == "failed":  # the next run of the page asks for it again
            st.error(f"{job.description} failed ({job.error}). Rerun the page (R) to try again, or change a "
                     "setting.")
            return
        if job.finished.is_set():
            st.rerun()
        place = JOBS.place(job)
        with st.container(key=f"background-job-{id(job)}"):  # the browser tests wait while one is on the page
            if place:
                st.info(f"{job.description}: waiting, number {place} in the server's queue of heavy work.")
            elif job.total:
                elapsed = time.monotonic() - job.started
                st.progress(job.done / job.total, text=f"{job.description}: "
                                                       f"{progress_text(job.done, job.total, elapsed)} "
                                                       "(the results fill in here when it is done)")
            else:  # no steps to count (a t-SNE)
                st.info(f"{job.description}: running for {time.monotonic() - job.started:.0f} s (the result fills "
                        "in here when it is done).")

    watch()


def _warm_map(model: LoadedModel, progress: Progress) -> None:
    """The map's default sample embedded and projected with t-SNE and UMAP (UMAP's compile paid here, too)."""
    texts = stsb_sample(MAP_SAMPLE_SIZE)["text"].tolist()
    vectors = model_space(model, texts, Settings(), lambda: nullcontext(progress)).vectors
    for done, method in enumerate(("t-SNE", "UMAP"), start=1):
        cached_project(vectors, method=method)
        progress(done, 2)


def _warm_first_visits(model: LoadedModel, progress: Progress) -> None:
    """What the first visitor of Similarity would wait for: the untrained baseline loaded and the explanation's
    reference sentences encoded (0.3 s and 0.6 s measured, paid once per server)."""
    cached_model(UNTRAINED_ID, "auto")
    progress(1, 2)
    explain_pair(model, "A man plays a guitar.", "Someone plays music.", reference=reference_texts())
    progress(2, 2)


@st.cache_resource(show_spinner=False)
def serve_many_sessions() -> None:
    """Once a server process starts: its thread pools set for many sessions at once, and said in its log; any fork
    from now on said in its log too (the server forks nothing)."""
    one_blas_thread()
    log_forks()
    print(f"Serving many sessions: BLAS threads {blas_threads()}", file=sys.stderr, flush=True)


@st.cache_resource(show_spinner=False)
def warm_up() -> None:
    """Once a server process starts: what first visits need, then the default model's corpus embeddings and map,
    in the background."""
    if not load_config().warm_up:
        return
    model = cached_model(DEFAULT_MODEL_ID, "auto")
    JOBS.submit(("warm", "first visits"), "Loading the untrained baseline and the explanation's reference",
                lambda progress: _warm_first_visits(model, progress))
    corpus_job(model, stsb_corpus(), Settings())
    JOBS.submit(("warm", "map"), "Preparing the map's default t-SNE and UMAP (once a server starts)",
                lambda progress: _warm_map(model, progress))
