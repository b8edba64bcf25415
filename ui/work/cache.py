"""What the pages cache, in one place: models and lexical indexes built once for all sessions of the server,
the catalog (briefly), dataset folders (until a file in them changes), tasks and their scores, model checks, token
states, and the map's projections, trust, clusters, keywords, selections and two configurations' agreement."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
import streamlit as st

from core.analysis.agreement import Agreement, agreement
from core.analysis.explanation import PairExplanation, explain_pair, reference_texts
from core.analysis.late.storage import Storage, corpus_storage
from core.analysis.layer_terms import LayerTerms, layer_terms
from core.analysis.layers import Drift, Word
from core.analysis.lexical import Baseline, Lexical, fit_baseline
from core.analysis.map.clusters import cluster_keywords, selection_keywords
from core.analysis.map.labels import MapLabel, zoom_labels
from core.analysis.map.neighbours import selection_table
from core.analysis.map.projection import TRUST_POINTS, Projection, Trust, density_clusters, kmeans_clusters, trust
from core.analysis.map.projection_cache import cached_project
from core.analysis.search import unit_rows
from core.analysis.vector_index import IndexParams, VectorIndex
from core.data.datasets import (
    Dataset,
    DatasetInfo,
    LateDataset,
    dataset_sources,
    listed_datasets,
    open_dataset,
    open_late_dataset,
    source_version,
)
from core.data.ranges import Ordered, ordered
from core.data.stores import is_store_uri
from core.data.stsb import Split, stsb_corpus
from core.data.vectors import VectorCorpus
from core.deployment import load_config
from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import TokenStates, encode_tokens
from core.evaluation.example_index import example_index
from core.evaluation.retrieval import (
    RetrievalTask,
    Scored,
    TaskResult,
    evaluate_embeddings,
    evaluate_fused,
    evaluate_lexical,
    paraphrase_task,
)
from core.evaluation.sts import PairRows, pair_rows
from core.hashing import texts_digest
from core.kinds import kind_of
from core.maps.space import MapSpace, as_space
from core.models.catalog import Availability, CatalogEntry, ModelKind, catalog
from core.models.hub_origin import HubOrigin, hub_origin
from core.models.loading import LoadedModel, load_model
from core.models.reranker import LoadedReranker, load_reranker
from core.models.sources import availability
from core.settings import Pooling, Settings


@st.cache_resource(show_spinner="Loading the model…", max_entries=4)
def cached_model(model_id: str, device: str) -> LoadedModel:
    return load_model(model_id, device)


@st.cache_resource(show_spinner="Loading the reranker…", max_entries=2)
def cached_reranker(model_id: str, device: str) -> LoadedReranker:
    return load_reranker(model_id, device)


def listed_datasets_now() -> tuple[list[DatasetInfo], list[str]]:
    """The deployment's dataset folders and stores, read again as soon as a file in a folder is added or replaced, or
    a store's count changes (a listing reads every file's footer; the versions only list and stat the files)."""
    sources = tuple(dataset_sources(load_config()))
    return _listed(sources, tuple(_store_version(s) if is_store_uri(s) else source_version(s) for s in sources))


@st.cache_data(ttl=10, show_spinner=False, max_entries=32)
def _store_version(uri: str) -> str:
    """A store's version, asked at most every 10 seconds (a count is a query to its server; a folder's is a stat)."""
    return source_version(uri)


@st.cache_data(show_spinner=False, max_entries=8)
def _listed(sources: tuple[str, ...], versions: tuple[str, ...]) -> tuple[list[DatasetInfo], list[str]]:
    return listed_datasets(sources)


@st.cache_resource(show_spinner="Writing the example index (two models embed 300 sentences)…", max_entries=1)
def example_index_now() -> VectorCorpus:
    return example_index(lambda model_id: cached_model(model_id, "auto"))


@st.cache_resource(show_spinner="Opening the dataset…", max_entries=4)
def dataset_of(source: str, version: str) -> Dataset:
    """One copy per server, shared by every session; a new `version` (a file added or replaced) reopens it."""
    return open_dataset(source, dataset_sources(load_config()))


@st.cache_data(show_spinner=False, max_entries=16)
def column_order(source: str, version: str, column: str) -> Ordered:
    """A dataset column's values in their own order, read once per version (dates are parsed from text)."""
    return ordered(dataset_of(source, version).table.column(column).to_pylist())


@st.cache_resource(show_spinner="Opening the dataset's token vectors…", max_entries=4)
def late_dataset_of(folder: str, version: str) -> LateDataset:
    """As `dataset_of`, for a late-interaction model's dataset: its token vectors memory-mapped once per server."""
    return open_late_dataset(Path(folder), dataset_sources(load_config()))


@st.cache_resource(show_spinner=False, max_entries=4)
def exact_index_of(folder: str, version: str, _vectors: np.ndarray) -> VectorIndex:
    return VectorIndex(unit_rows(_vectors), IndexParams("exact"))


@st.cache_data(ttl=30, show_spinner=False)
def cached_catalog() -> list[tuple[CatalogEntry, Availability]]:
    return [(entry, availability(entry.id)) for entry in catalog()]


@st.cache_data(ttl=30, show_spinner=False, max_entries=16)
def hub_origin_of(folder: Path) -> HubOrigin | None:
    """Per model folder, for a while: it scans the whole Hugging Face cache and reads the card, on every rerun of Home
    and Model."""
    return hub_origin(folder)


def available_ids(*kinds: ModelKind) -> list[str]:
    """Catalog models of `kinds` (dense and sparse: the ones that embed) that can be loaded now, in catalog order."""
    wanted = kinds or ("dense", "sparse")
    return [entry.id for entry, status in cached_catalog() if status.available and (entry.kind or "dense") in wanted]


def lexical_index(baseline: Baseline, corpus: Sequence[str]) -> Lexical:
    """The baseline fitted on `corpus`, once per corpus content (a digest is the key: Streamlit's own hashing of
    thousands of texts would take longer than a rerun)."""
    return _fitted(baseline, texts_digest(corpus), corpus)


@st.cache_resource(show_spinner="Fitting the lexical baselines…", max_entries=12)
def _fitted(baseline: Baseline, corpus_digest: str, _corpus: Sequence[str]) -> Lexical:
    return fit_baseline(baseline, _corpus)


@st.cache_data(show_spinner="Building the paraphrase task…", max_entries=2)
def paraphrase_task_of(split: str) -> RetrievalTask:
    return paraphrase_task(split)


@st.cache_data(show_spinner=False, max_entries=64)
def embedding_scores(task_digest: str, ks: tuple[int, ...], fingerprint: str, settings: Settings,
                     prompts: tuple[str, str], _model: LoadedModel, _task: RetrievalTask,
                     _progress_bar: ProgressBar) -> TaskResult:
    """One configuration's scores on a task (with these query and document prompts), kept so that a display-only
    rerun does not rank again."""
    return evaluate_embeddings(_model, _task, settings, ks=ks, prompts=prompts, progress_bar=_progress_bar)


@st.cache_data(show_spinner=False, max_entries=32)
def check_table(key: Hashable, _compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """A model check's table, computed once for `key` (all that it depends on)."""
    return _compute()


@st.cache_data(show_spinner=False)
def pair_rows_of(split: Split) -> PairRows:
    return pair_rows(split)


@st.cache_data(show_spinner=False, max_entries=16)
def lexical_scores(task_digest: str, ks: tuple[int, ...], baseline: Baseline, _task: RetrievalTask) -> TaskResult:
    return evaluate_lexical(lexical_index(baseline, _task.corpus), _task, ks=ks)


@st.cache_data(show_spinner="Fusing the two lists…", max_entries=16)
def fused_scores(task_digest: str, ks: tuple[int, ...], first: Hashable, second: Hashable,
                 _first: Callable[[], Scored], _second: Callable[[], Scored], _task: RetrievalTask) -> TaskResult:
    """A hybrid's scores on a task: two first stages (named by what they depend on) fused by reciprocal rank
    fusion."""
    return evaluate_fused(_task, _first(), _second(), ks=ks)


@st.cache_data(show_spinner=False, max_entries=16)
def projection_of(vectors: np.ndarray, method: str, perplexity: float, neighbours: int, min_dist: float,
                  seed: int) -> Projection:
    return cached_project(vectors, method=method, perplexity=perplexity, neighbours=neighbours, min_dist=min_dist,
                          seed=seed)


@st.cache_resource(show_spinner="Reducing the sparse vectors (TruncatedSVD)…", max_entries=4)
def space_of(vectors_key: str, texts_key: str, _found: np.ndarray | sp.csr_matrix, _rows: np.ndarray) -> MapSpace:
    """A map's space from its distinct texts' vectors (their cache key) and its rows' texts, once: a sparse model's
    reduction is fitted once per corpus."""
    return as_space(_found, _rows)


@st.cache_data(show_spinner=False, max_entries=16)
def trust_of(vectors: np.ndarray, coords: np.ndarray, seed: int) -> Trust:
    return trust(vectors, coords, seed=seed)


@st.cache_data(show_spinner=False, max_entries=16)
def keywords_of(texts_key: str, clusters: np.ndarray, _texts: Sequence[str]) -> pd.DataFrame:
    """Each cluster's keywords, per (texts, clusters): TF-IDF over 100,000 texts took a fifth of a rerun."""
    return cluster_keywords(_texts, clusters)


@st.cache_data(show_spinner=False, max_entries=8)
def labels_of(texts_key: str, coords: np.ndarray, clusters: Sequence[str] | np.ndarray | None, seed: int,
              _texts: Sequence[str]) -> list[MapLabel]:
    """The map's labels at every zoom level, per (texts, positions, clusters)."""
    return zoom_labels(coords, _texts, None if clusters is None else np.asarray(clusters), seed=seed)


@st.cache_data(show_spinner=False, max_entries=16)
def selection_keywords_of(texts_key: str, chosen: tuple[int, ...], _texts: Sequence[str]) -> str:
    return selection_keywords(_texts, chosen)


@st.cache_data(show_spinner=False, max_entries=16)
def density_of(coords: np.ndarray, min_size: int) -> np.ndarray:
    return density_clusters(coords, min_size=min_size)


@st.cache_data(show_spinner=False, max_entries=8)
def selection_of(frame: pd.DataFrame, chosen: tuple[int, ...], vectors: np.ndarray) -> pd.DataFrame:
    """The selection's table, kept: each selected text's nearest other text is a search over the whole corpus."""
    return selection_table(frame, chosen, vectors)


@st.cache_data(show_spinner=False, max_entries=8)
def agreement_of(a: np.ndarray, b: np.ndarray, seed: int) -> Agreement:
    """How far two configurations' spaces of the map's texts agree, kept: a rerun that changes neither space does
    not search the neighbours again (the overlap of at most TRUST_POINTS texts, as the map's trust)."""
    return agreement(a, b, overlap_texts=TRUST_POINTS, seed=seed)


@st.cache_data(show_spinner=False, max_entries=16)
def clusters_of(vectors: np.ndarray, k: int, seed: int) -> np.ndarray:
    return kmeans_clusters(vectors, k=k, seed=seed)


@st.cache_resource(max_entries=32, show_spinner=False)
def token_states_of(_model: LoadedModel, fingerprint: str, texts: tuple[str, ...],
                    max_length: int | None, prompt: str = "") -> list[TokenStates]:
    """Token states per (weights, texts, limit, prompt), so a click on a chip does not run the model again."""
    return encode_tokens(_model, texts, max_length=max_length, prompt=prompt)


@st.cache_resource(max_entries=32, show_spinner=False)
def drift_of(_model: LoadedModel, fingerprint: str, texts: tuple[str, ...], max_length: int | None, prompt: str,
             chosen: tuple[Word | None, ...], pooling: Pooling) -> Drift:
    """Layers' curves per (weights, texts, limit, prompt, chosen words, pooling), shared by every session: a class
    opening the page on its example texts computes them once (the random-pair band alone was a quarter of a rerun)."""
    states = token_states_of(_model, fingerprint, texts, max_length, prompt)
    return kind_of(_model).drift(_model, states, chosen, pooling=pooling, max_length=max_length)


@st.cache_resource(max_entries=16, show_spinner=False)
def layer_terms_of(_model: LoadedModel, fingerprint: str, texts: tuple[str, ...], max_length: int | None,
                   prompt: str = "") -> LayerTerms:
    """Every layer's terms per (weights, texts, limit, prompt): the head runs once per layer."""
    return layer_terms(_model, texts, max_length=max_length, prompt=prompt)


@st.cache_data(show_spinner=False, max_entries=64)
def explanation_of(fingerprint: str, a: str, b: str, pooling: Pooling, layer: int, max_length: int | None,
                   prompt: str = "", *, _model: LoadedModel) -> PairExplanation:
    """The exact split of a pair, per (weights, texts, settings); the shared direction from STS-B sentences."""
    return explain_pair(_model, a, b, pooling=pooling, layer=layer, max_length=max_length, prompt=prompt,
                        reference=reference_texts())


@st.cache_data(show_spinner="Counting the built-in corpus's token vectors…", max_entries=8)
def builtin_storage_of(model_id: str, fingerprint: str, *, _model: LoadedModel) -> Storage:
    """What a late-interaction model stores for the built-in corpus (Retrieval's STS-B texts) as documents, per
    model; DataUnavailable without the STS-B files."""
    return corpus_storage(_model, stsb_corpus())
