"""A late-interaction model measured in variants of itself, from token vectors encoded once: its documents' token
vectors pooled (HierarchicalTokenPooling, as encode_document's per-call `token_pooling=` pools them) against the
index they take, late interaction's version of the dimensions check; and its queries with the query expansion on and
off. Every table has one row per variant, its retrieval metrics on the task and, where STS-B vectors are given, its
STS Spearman (sentence 1 read as the query, sentence 2 as the document)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np
import pandas as pd
import torch

from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import Progress
from core.encoding.late.cache import cached_token_matrix
from core.encoding.late.matrix import EXPANSION, TokenMatrix
from core.evaluation.metrics import shown_name, sts_correlation
from core.evaluation.retrieval import RetrievalTask, evaluate_stage, token_stage
from core.evaluation.sts import PairRows, late_pair_scores
from core.evaluation.variants import CHECK_KS
from core.models.loading import LoadedModel
from core.models.memo import EmbeddingMemo
from core.models.pipeline import late_interaction_pipeline

POOL_FACTORS = (1, 2, 3, 4)
POOL_CHUNK = 256  # documents pooled between two progress reports
SPEARMAN = "STS-B spearman"


@dataclass(frozen=True)
class LateEmbedded:
    """A late-interaction model's token vectors for a check: the task's queries and corpus, and the STS-B split's pairs
    (sentence 1 as a query, sentence 2 as a document; None when the check has no STS-B)."""

    queries: TokenMatrix
    corpus: TokenMatrix
    sts_queries: TokenMatrix | None = None
    sts_documents: TokenMatrix | None = None


def sts_texts(sts: PairRows) -> tuple[list[str], list[str]]:
    """Each STS-B pair's sentence 1 (read as the query) and sentence 2 (read as the document)."""
    return [sts.sentences[i] for i in sts.first], [sts.sentences[i] for i in sts.second]


def pooled(model: LoadedModel, documents: TokenMatrix, factor: float, *,
           progress: Progress | None = None) -> TokenMatrix:
    """Each document's token vectors pooled as `encode_document(token_pooling=HierarchicalTokenPooling(factor))` pools
    them (Ward clustering of all tokens but the first, each cluster replaced by its mean), kept at unit length only
    where the model's own tokens are, so that factor 1 leaves them as they are."""
    from sentence_transformers.multi_vector_encoder.modules import HierarchicalTokenPooling

    pooling = HierarchicalTokenPooling(pool_factor=factor, normalize_embeddings=model.late_pipeline.normalizes)
    texts = documents.per_text()
    merged: list[np.ndarray] = []
    for start in range(0, len(texts), POOL_CHUNK):
        chunk = [torch.from_numpy(np.array(vectors)) for vectors in texts[start:start + POOL_CHUNK]]
        merged += [vectors.numpy() for vectors in pooling.pool(chunk, task="document")]
        if progress is not None:
            progress(start + len(chunk), len(texts))
    width = documents.vectors.shape[1]
    vectors = np.concatenate(merged) if merged else np.zeros((0, width), np.float32)
    offsets = np.concatenate([[0], np.cumsum([len(part) for part in merged], dtype=np.int64)]).astype(np.int64)
    return TokenMatrix.bare(np.ascontiguousarray(vectors, np.float32).reshape(-1, width), offsets)


def _row(model: LoadedModel, task: RetrievalTask, vectors: LateEmbedded, sts: PairRows | None) -> dict[str, float]:
    """The task's metrics at k in CHECK_KS, MRR@10 and nDCG@10 (named as the tables name them), and STS-B Spearman."""
    result = evaluate_stage(task, token_stage(model, vectors.queries, vectors.corpus), ks=CHECK_KS)
    row = {shown_name(key): value for key, value in result.metrics.items()}
    if sts is not None and vectors.sts_queries is not None and vectors.sts_documents is not None:
        similarity = late_pair_scores(model, vectors.sts_queries, vectors.sts_documents)
        row[SPEARMAN] = sts_correlation(similarity, sts.gold, result.score)[f"spearman_{result.score}"]
    return row


def pooling_check(model: LoadedModel, task: RetrievalTask, vectors: LateEmbedded, sts: PairRows | None = None,
                  factors: Sequence[float] = POOL_FACTORS, *, progress: Progress | None = None) -> pd.DataFrame:
    """For each pool factor: the corpus's (and STS-B's documents') token vectors pooled, the index they take as
    float32 (bytes, and vectors per text), and the metrics with the queries as they are (pooling applies to documents
    only, as HierarchicalTokenPooling's default tasks say)."""
    rows = []
    for step, factor in enumerate(factors):
        def report(done: int, total: int, step: int = step) -> None:
            if progress is not None:
                progress(step * total + done, len(factors) * total)

        corpus = pooled(model, vectors.corpus, factor, progress=report)
        documents = pooled(model, vectors.sts_documents, factor) if vectors.sts_documents is not None else None
        rows.append({"pool factor": factor, "index bytes": corpus.nbytes,
                     "vectors per text": corpus.token_count / max(len(corpus), 1),
                     **_row(model, task, replace(vectors, corpus=corpus, sts_documents=documents), sts)})
    return pd.DataFrame(rows)


def without_query_expansion(model: LoadedModel) -> LoadedModel:
    """A copy of a late-interaction model whose Transformer expands no query (`query_expansion = None`), sharing the
    model's weights and tokenizer, with a memo of its own: the loaded model, which other sessions encode with meanwhile,
    is never changed, and neither memo can hand out the other's vectors (on disk, the expansion is part of the key)."""
    from sentence_transformers.base.modules import Transformer

    encoder = model.multivector
    shared = {id(item): item for item in chain(encoder.parameters(), encoder.buffers(), [model.tokenizer])}
    unexpanded = copy.deepcopy(encoder, memo=shared)
    next(module for module in unexpanded if isinstance(module, Transformer)).query_expansion = None
    return replace(model, multivector=unexpanded, memo=EmbeddingMemo(),
                   pipeline=late_interaction_pipeline(unexpanded, model_id=model.model_id))


def unexpanded_queries(model: LoadedModel, task: RetrievalTask, sts: PairRows | None, *,
                       progress_bar: ProgressBar = nullcontext) -> tuple[TokenMatrix, TokenMatrix | None]:
    """The task's queries (and STS-B's sentence 1s) as encode_query makes them with the query expansion off."""
    texts = [*task.queries, *(sts_texts(sts)[0] if sts is not None else ())]
    queries = cached_token_matrix(without_query_expansion(model), texts, "query", progress_bar)
    return queries[:len(task.queries)], queries[len(task.queries):] if sts is not None else None


def expansion_check(model: LoadedModel, task: RetrievalTask, vectors: LateEmbedded,
                    unexpanded: tuple[TokenMatrix, TokenMatrix | None], sts: PairRows | None = None) -> pd.DataFrame:
    """The metrics with the queries as the model expands them and with the expansion off (`unexpanded`: the task's
    queries and STS-B's sentence 1s so made); documents are never expanded, so both read the same ones."""
    off = replace(vectors, queries=unexpanded[0], sts_queries=unexpanded[1])
    return pd.DataFrame([{"query expansion": name, "query vectors": variant.queries.token_count / len(variant.queries),
                          "expansion vectors": _expansion_tokens(variant.queries) / len(variant.queries),
                          **_row(model, task, variant, sts)}
                         for name, variant in (("on (the model's)", vectors), ("off", off))])


def _expansion_tokens(texts: TokenMatrix) -> int:
    return int(np.count_nonzero(texts.flags[texts.offsets[0]:texts.offsets[-1]] & EXPANSION))
