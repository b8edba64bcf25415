"""Pre-fill the on-disk embedding cache with seeded random vectors (a sparse model's: random sparse rows), so page
tests never encode big corpora."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import streamlit as st

from core.analysis.search import unit_rows
from core.encoding import embedding_cache
from core.encoding.embedding_cache import cache_file, cache_key, sparse_key, write_sparse, write_vectors
from core.models.loading import LoadedModel
from core.settings import Role, Settings


def prefill(model: LoadedModel, texts: list[str], *, pooling: str = "default", layer: int | None = None,
            prompt: str = "", seed: int = 0, vectors: np.ndarray | None = None) -> np.ndarray:
    """Seeded random unit vectors for `texts` (or the `vectors` given) under these options, written to the cache."""
    key = cache_key(model, texts, pooling=pooling, layer=layer, normalize=False, max_length=None, prompt=prompt)
    if vectors is None:
        vectors = unit_rows(np.random.default_rng(seed).standard_normal((len(texts), model.hidden_size)))
    write_vectors(cache_file(key), key, vectors)
    # Another module's fill of the same key, and scores the pages computed from it, must not stay in memory.
    embedding_cache._memo.clear()
    st.cache_data.clear()
    return vectors


def prefill_sparse(model: LoadedModel, texts: list[str], *, role: Role = "document", prompt: str = "",
                   seed: int = 0, active: int = 30) -> sp.csr_matrix:
    """Seeded random sparse rows (`active` terms each, positive weights) for a sparse model's `texts` as `role`."""
    rng = np.random.default_rng(seed)
    columns = np.concatenate([rng.choice(model.dimensions, active, replace=False) for _ in texts]) if texts else []
    rows = sp.csr_matrix((rng.uniform(0.1, 3.0, len(columns)).astype(np.float32),
                          (np.repeat(np.arange(len(texts)), active), columns)), shape=(len(texts), model.dimensions))
    settings = Settings(model_id=model.model_id, prompt=prompt, role=role)
    key = sparse_key(model, texts, settings)
    write_sparse(cache_file(key), key, rows)
    embedding_cache._memo.clear()
    st.cache_data.clear()
    return rows


def prefill_lessons(minilm: LoadedModel) -> None:
    """The heavy lessons' benchmark embeddings (STS-B and its paraphrase task under each pooling and prompt they use,
    SPLADE-tiny's, the texts lesson 21 compares three models on) as seeded random vectors: their views and checks
    then draw in seconds; the numbers are tested in tests/core/lessons on real vectors."""
    from core.data.stsb import stsb_corpus, stsb_sample, stsb_sentences
    from core.evaluation.retrieval import paraphrase_task
    from core.evaluation.variants import TRY_INSTRUCTION
    from core.lessons.lessons import COMPARED_TEXTS
    from core.models.catalog import L3_ID
    from core.models.loading import load_model

    sentences = stsb_sentences("dev")
    prefill(minilm, sentences, seed=1)
    prefill(load_model("untrained-bert", "cpu"), sentences, seed=2)
    task = paraphrase_task("dev")
    for seed, pooling in enumerate(("default", "mean", "cls", "max")):
        prefill(minilm, stsb_corpus(), pooling=pooling, seed=10 + seed)
        prefill(minilm, task.queries, pooling=pooling, seed=20 + seed)
    prefill(minilm, task.queries, prompt=TRY_INSTRUCTION, seed=30)  # the Prompts check's typed instruction
    prefill(minilm, sentences, prompt=TRY_INSTRUCTION, seed=31)
    splade = load_model("splade-tiny", "cpu")  # lesson 18 ranks the task with SPLADE-tiny too
    prefill_sparse(splade, stsb_corpus(), seed=40)
    prefill_sparse(splade, task.queries, role="query", seed=41)
    compared = stsb_sample(COMPARED_TEXTS)["text"].tolist()  # lesson 21 compares three models on them
    for seed, model_id in enumerate(("all-MiniLM-L6-v2", L3_ID, "untrained-bert")):
        prefill(load_model(model_id, "cpu"), compared, seed=50 + seed)
