"""Retrieval tasks: queries, a corpus, and which corpus texts are relevant to each query.

The built-in one is the STS-B paraphrase task: for a split, the queries are the distinct sentence-2
texts of pairs scored >= 4.0, the corpus is the distinct sentence-1 texts of all three splits (7,977),
and a query's relevant texts are the sentence-1 texts it was paired with at >= 4.0. A corpus text
identical to the query is excluded from its ranking, so it can never count as a hit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence, Set
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import scipy.sparse as sp

from core.analysis.fusion import FUSE_DEPTH, fuse_rows
from core.analysis.late.maxsim import matrix_scores
from core.analysis.lexical import Lexical
from core.analysis.search import (
    SCORE,
    BestRelevant,
    BlockScore,
    Hits,
    Matrix,
    dot_scores,
    top_k,
    top_k_and_best_relevant,
    unit_rows,
)
from core.analysis.terms import scored_rows
from core.data.stsb import Split, load_stsb, stsb_corpus
from core.encoding.embedding_cache import ProgressBar
from core.encoding.late.cache import cached_token_matrix
from core.encoding.late.matrix import TokenMatrix
from core.encoding.prompts import role_prompts
from core.evaluation.metrics import (
    DEFAULT_KS,
    MRR_K,
    NDCG_K,
    primary_key,
    recall_key,
    retrieval_metrics,
    shown_name,
)
from core.kinds import kind_of
from core.models.catalog import LATE
from core.models.loading import LoadedModel
from core.settings import Settings

PARAPHRASE_MIN_SCORE = 4.0


@dataclass(frozen=True)
class RetrievalTask:
    name: str
    queries: list[str]
    corpus: list[str]
    relevant: list[frozenset[int]]  # corpus indices relevant to each query
    missing: list[list[str]]  # relevant texts of each query that are not in the corpus (always misses)
    exclude: list[frozenset[int]]  # corpus indices never ranked for each query (the query's own text)

    @property
    def digest(self) -> str:
        """A content hash of all the task holds: equal tasks, from any file or rerun, share their scores."""
        content = repr((self.queries, self.corpus, [sorted(docs) for docs in self.relevant], self.missing,
                        [sorted(docs) for docs in self.exclude]))
        return hashlib.blake2b(content.encode(), digest_size=20).hexdigest()

    def relevant_count(self, query: int) -> int:
        return len(self.relevant[query]) + len(self.missing[query])

    @property
    def queries_with_missing(self) -> list[int]:
        return [q for q, texts in enumerate(self.missing) if texts]


def build_task(name: str, pairs: Mapping[str, Set[str]], corpus: Sequence[str]) -> RetrievalTask:
    """A task from query -> relevant texts; relevant texts absent from the corpus are kept as misses."""
    corpus = list(corpus)
    position = {text: i for i, text in enumerate(corpus)}
    queries = [q for q, docs in pairs.items() if docs]
    relevant = [frozenset(position[d] for d in pairs[q] if d in position) for q in queries]
    missing = [sorted(d for d in pairs[q] if d not in position) for q in queries]
    exclude = [frozenset({position[q]}) if q in position else frozenset() for q in queries]
    return RetrievalTask(name, queries, corpus, relevant, missing, exclude)


def paraphrase_pairs(split: Split) -> dict[str, set[str]]:
    pairs: dict[str, set[str]] = {}
    for pair in load_stsb(split):
        if pair.score >= PARAPHRASE_MIN_SCORE:
            pairs.setdefault(pair.sentence2, set()).add(pair.sentence1)
    return pairs


def paraphrase_task(split: Split) -> RetrievalTask:
    return build_task(f"STS-B paraphrase ({split})", paraphrase_pairs(split), stsb_corpus())


@dataclass
class TaskResult:
    metrics: dict[str, float]  # namespaced as sentence-transformers' InformationRetrievalEvaluator names them
    counts: dict[str, int]  # queries, corpus
    per_query: pd.DataFrame  # one row per query: ranks, hits and margins for diagnostics
    score: str = SCORE  # what the ranking is by: the keys' namespace

    @property
    def primary_metric(self) -> str:
        return primary_key(self.score)


def ranking_depth(ks: Sequence[int]) -> int:
    """How many texts a ranking must hold for every metric: the largest k, and 10 for MRR@10 and nDCG@10."""
    return max(*ks, NDCG_K, MRR_K)


def ranked_metrics(task: RetrievalTask, ranked: np.ndarray, ks: Sequence[int], score: str = SCORE) -> dict[str, float]:
    """The metrics of a ranking of the corpus per query (best first), relevant texts missing from the corpus
    counted as misses."""
    counts = [task.relevant_count(q) for q in range(len(task.queries))]
    return retrieval_metrics(ranked, task.relevant, counts=counts, ks=ks, score=score)


def evaluate_task(task: RetrievalTask, query_vectors: Matrix, corpus_vectors: Matrix, *,
                  ks: Sequence[int] = DEFAULT_KS, score: str = SCORE, block: BlockScore = dot_scores) -> TaskResult:
    """Rank the corpus for every query by the dot product of their rows (chunked) and score the ranking.

    Dense vectors are scaled to unit length here, so the dot is the cosine; sparse rows arrive as they are scored
    (a baseline's unit rows or BM25 weights, a sparse model's vectors); token vectors (TokenMatrix) are scored by
    `block`, MaxSim. `score` names what the ranking is by."""
    if not task.queries:
        raise ValueError("The task has no queries with a relevant text.")
    if not isinstance(query_vectors, np.ndarray) or not isinstance(corpus_vectors, np.ndarray):
        queries, corpus = query_vectors, corpus_vectors
    else:
        queries, corpus = unit_rows(query_vectors), unit_rows(corpus_vectors)
    hits, best = top_k_and_best_relevant(queries, corpus, ranking_depth(ks), task.relevant, exclude=task.exclude,
                                         score=block)
    counts = {"queries": len(task.queries), "corpus": len(task.corpus)}
    return TaskResult(ranked_metrics(task, hits.indices, ks, score), counts, per_query(task, hits, best), score)


def evaluate_embeddings(model: LoadedModel, task: RetrievalTask, settings: Settings, *,
                        ks: Sequence[int] = DEFAULT_KS, prompts: tuple[str, str] | None = None,
                        progress_bar: ProgressBar = nullcontext) -> TaskResult:
    """One model configuration on the task: queries and corpus embedded (or read from the embedding cache)
    with `settings` and the (query, document) `prompts` (None: the model's own, as encode_query and
    encode_document apply them), then ranked and scored (a sparse or late-interaction model by its own similarity)."""
    return evaluate_stage(task, model_stage(model, task, settings, prompts=prompts, progress_bar=progress_bar), ks=ks)


def task_vectors(model: LoadedModel, task: RetrievalTask, settings: Settings, *,
                 prompts: tuple[str, str] | None = None,
                 progress_bar: ProgressBar = nullcontext) -> tuple[Matrix, Matrix]:
    """The task's (query, corpus) vectors, embedded or read from the embedding cache, as `evaluate_embeddings`
    describes: a dense model's arrays, or a sparse model's CSR rows ready for the dot product."""
    query_prompt, document_prompt = role_prompts(model.pipeline) if prompts is None else prompts
    queries_as = settings.with_(prompt=query_prompt, role="query")
    corpus_as = settings.with_(prompt=document_prompt, role="document")
    kind = kind_of(model)
    corpus = kind.cached(model, task.corpus, corpus_as, progress_bar)
    queries = kind.cached(model, task.queries, queries_as, progress_bar)
    if sp.issparse(corpus):  # CSR rows, as the model's own similarity scores them
        return scored_rows(model, queries), scored_rows(model, corpus)
    return queries, corpus


@dataclass(frozen=True)
class Scored:
    """One first stage's rows of the task, ready for `block` (the dot product, or a late-interaction model's MaxSim
    of token vectors): queries, corpus, what the score is, and whether only a score above 0 finds a text (a lexical
    baseline or a sparse model: 0 shares nothing)."""

    queries: Matrix
    corpus: Matrix
    score: str
    positive_only: bool
    block: BlockScore = dot_scores

    def hits(self, task: RetrievalTask, depth: int) -> Hits:
        if isinstance(self.queries, np.ndarray) and isinstance(self.corpus, np.ndarray):
            queries, corpus = unit_rows(self.queries), unit_rows(self.corpus)
        else:
            queries, corpus = self.queries, self.corpus
        found = top_k(queries, corpus, depth, exclude=task.exclude, score=self.block)
        if self.positive_only:
            found.indices = np.where(found.scores > 0, found.indices, -1)
        return found


def model_stage(model: LoadedModel, task: RetrievalTask, settings: Settings, *,
                prompts: tuple[str, str] | None = None, progress_bar: ProgressBar = nullcontext) -> Scored:
    """A model configuration as a first stage of the task (its vectors from the embedding cache); a late-interaction
    model's is `late_stage` (settings and prompts do not apply to it)."""
    if model.kind == LATE:
        return late_stage(model, task, progress_bar=progress_bar)
    queries, corpus = task_vectors(model, task, settings, prompts=prompts, progress_bar=progress_bar)
    kind = kind_of(model)
    return Scored(queries, corpus, kind.score_name(model), kind.positive_only)


def late_stage(model: LoadedModel, task: RetrievalTask, *, progress_bar: ProgressBar = nullcontext) -> Scored:
    """A late-interaction model as a first stage of the task: its queries' token vectors as encode_query gives them
    and its corpus's as encode_document does (both from the token-vector cache), ranked by exact MaxSim, or
    MeanMaxSim, as its own similarity and MultiVectorInformationRetrievalEvaluator score them."""
    corpus = cached_token_matrix(model, task.corpus, "document", progress_bar)
    return token_stage(model, cached_token_matrix(model, task.queries, "query", progress_bar), corpus)


def token_stage(model: LoadedModel, queries: TokenMatrix, corpus: TokenMatrix) -> Scored:
    """Token vectors of a task's queries and corpus (a late-interaction model's, or variants of them) as a first
    stage, ranked by the model's own similarity."""
    similarity = model.late_pipeline.similarity
    return Scored(queries, corpus, similarity, False, partial(matrix_scores, mean=similarity == "meanmaxsim"))


def evaluate_stage(task: RetrievalTask, stage: Scored, *, ks: Sequence[int] = DEFAULT_KS) -> TaskResult:
    """A first stage's ranking of the task, scored."""
    return evaluate_task(task, stage.queries, stage.corpus, ks=ks, score=stage.score, block=stage.block)


def lexical_stage(index: Lexical, task: RetrievalTask) -> Scored:
    """A baseline fitted on the task's corpus as a first stage of the task."""
    return Scored(index.query_rows(task.queries), index.corpus_rows, index.score, True)


def evaluate_fused(task: RetrievalTask, first: Scored, second: Scored, *, ks: Sequence[int] = DEFAULT_KS,
                   depth: int = FUSE_DEPTH) -> TaskResult:
    """Hybrid search on the task: each stage's top `depth` per query (a positive-only stage's scored texts alone)
    fused by reciprocal rank fusion, then scored; a relevant text outside both lists counts as a miss."""
    lists = [stage.hits(task, depth).indices for stage in (first, second)]
    kept = [[row[row >= 0] for row in found] for found in lists]
    width = max(ranking_depth(ks), 2 * depth)
    indices, scores = fuse_rows(kept[0], kept[1], width)
    return listed_result(task, Hits(indices, scores), ks, "rrf")


def listed_result(task: RetrievalTask, hits: Hits, ks: Sequence[int], score: str) -> TaskResult:
    """The task scored on ranked lists built elsewhere (fused, reranked): a relevant text outside a query's list is
    a miss, and its diagnostics come from the list."""
    counts = {"queries": len(task.queries), "corpus": len(task.corpus)}
    return TaskResult(ranked_metrics(task, hits.indices, ks, score), counts,
                      per_query(task, hits, best_listed(task, hits)), score)


def best_listed(task: RetrievalTask, hits: Hits) -> BestRelevant:
    """Each query's first relevant text in its list (rank 0 where the list holds none)."""
    rank, index, score = np.zeros(len(task.queries), np.int64), np.full(len(task.queries), -1), \
        np.full(len(task.queries), np.nan)
    for q, row in enumerate(hits.indices):
        at = next((j for j, doc in enumerate(row) if int(doc) in task.relevant[q]), None)
        if at is not None:
            rank[q], index[q], score[q] = at + 1, row[at], hits.scores[q, at]
    return BestRelevant(rank, index, score)


def evaluate_lexical(index: Lexical, task: RetrievalTask, *, ks: Sequence[int] = DEFAULT_KS) -> TaskResult:
    """A lexical baseline fitted on the task's corpus, on the task."""
    return evaluate_stage(task, lexical_stage(index, task), ks=ks)


def metrics_table(results: Mapping[str, TaskResult]) -> pd.DataFrame:
    """One row per configuration, one column per metric (`recall@1` …, `mrr@10`, `ndcg@10`)."""
    return pd.DataFrame([{"configuration": name, **{shown_name(key): value for key, value in r.metrics.items()}}
                         for name, r in results.items()])


def recall_curves(results: Mapping[str, TaskResult], ks: Sequence[int]) -> pd.DataFrame:
    """Long table for the Recall@k figure: configuration, k, recall."""
    return pd.DataFrame([{"configuration": name, "k": k, "recall": r.metrics[recall_key(k, r.score)]}
                         for name, r in results.items() for k in ks])


def per_query(task: RetrievalTask, hits: Hits, best: BestRelevant) -> pd.DataFrame:
    rows = []
    for q, query in enumerate(task.queries):
        wrong = next((j for j, doc in enumerate(hits.indices[q]) if 0 <= int(doc) and int(doc) not in task.relevant[q]),
                     None)
        wrong_score = float(hits.scores[q, wrong]) if wrong is not None else np.nan
        found = best.index[q] >= 0
        rows.append({
            "query": query,
            "first relevant rank": int(best.rank[q]) if found else pd.NA,
            "relevant text": task.corpus[best.index[q]] if found else "",
            "relevant score": float(best.score[q]) if found else np.nan,
            "top wrong hit": task.corpus[hits.indices[q, wrong]] if wrong is not None else "",
            "top wrong score": wrong_score,
            "margin": float(best.score[q]) - wrong_score if found else np.nan,
            "not in corpus": " | ".join(task.missing[q]),
        })
    frame = pd.DataFrame(rows)
    frame["first relevant rank"] = frame["first relevant rank"].astype("Int64")
    return frame
