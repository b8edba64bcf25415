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

import numpy as np
import pandas as pd

from core.analysis.search import BestRelevant, Hits, Matrix, top_k_and_best_relevant, unit_rows
from core.data.stsb import Split, load_stsb, stsb_corpus
from core.encoding.embedding_cache import ProgressBar, cached_embeddings_with
from core.encoding.prompts import role_prompts
from core.evaluation.lexical import LexicalIndex
from core.evaluation.metrics import (
    DEFAULT_KS,
    MRR_K,
    NDCG_K,
    RETRIEVAL_PRIMARY,
    recall_key,
    retrieval_metrics,
    shown_name,
)
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


def build_task(name: str, pairs: Mapping[str, Set[str]], corpus: list[str]) -> RetrievalTask:
    """A task from query -> relevant texts; relevant texts absent from the corpus are kept as misses."""
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
    primary_metric: str = RETRIEVAL_PRIMARY


def ranking_depth(ks: Sequence[int]) -> int:
    """How many texts a ranking must hold for every metric: the largest k, and 10 for MRR@10 and nDCG@10."""
    return max(*ks, NDCG_K, MRR_K)


def ranked_metrics(task: RetrievalTask, ranked: np.ndarray, ks: Sequence[int]) -> dict[str, float]:
    """The metrics of a ranking of the corpus per query (best first), relevant texts missing from the corpus
    counted as misses."""
    counts = [task.relevant_count(q) for q in range(len(task.queries))]
    return retrieval_metrics(ranked, task.relevant, counts=counts, ks=ks)


def evaluate_task(task: RetrievalTask, query_vectors: Matrix, corpus_vectors: Matrix, *,
                  ks: Sequence[int] = DEFAULT_KS) -> TaskResult:
    """Rank the corpus for every query (cosine, chunked) and score the ranking.

    Dense vectors are scaled to unit length here; sparse baseline rows arrive unit length already."""
    if not task.queries:
        raise ValueError("The task has no queries with a relevant text.")
    if not isinstance(query_vectors, np.ndarray) or not isinstance(corpus_vectors, np.ndarray):
        queries, corpus = query_vectors, corpus_vectors
    else:
        queries, corpus = unit_rows(query_vectors), unit_rows(corpus_vectors)
    hits, best = top_k_and_best_relevant(queries, corpus, ranking_depth(ks), task.relevant, exclude=task.exclude)
    counts = {"queries": len(task.queries), "corpus": len(task.corpus)}
    return TaskResult(ranked_metrics(task, hits.indices, ks), counts, _per_query(task, hits, best))


def evaluate_embeddings(model: LoadedModel, task: RetrievalTask, settings: Settings, *,
                        ks: Sequence[int] = DEFAULT_KS, prompts: tuple[str, str] | None = None,
                        progress_bar: ProgressBar = nullcontext) -> TaskResult:
    """One model configuration on the task: queries and corpus embedded (or read from the embedding cache)
    with `settings` and the (query, document) `prompts` (None: the model's own, as encode_query and
    encode_document apply them), then ranked and scored."""
    return evaluate_task(task, *task_vectors(model, task, settings, prompts=prompts, progress_bar=progress_bar), ks=ks)


def task_vectors(model: LoadedModel, task: RetrievalTask, settings: Settings, *,
                 prompts: tuple[str, str] | None = None,
                 progress_bar: ProgressBar = nullcontext) -> tuple[np.ndarray, np.ndarray]:
    """The task's (query, corpus) vectors, embedded or read from the embedding cache, as `evaluate_embeddings`
    describes."""
    query_prompt, document_prompt = role_prompts(model.pipeline) if prompts is None else prompts
    corpus = cached_embeddings_with(model, task.corpus, settings.with_(prompt=document_prompt), progress_bar)
    queries = cached_embeddings_with(model, task.queries, settings.with_(prompt=query_prompt), progress_bar)
    return queries, corpus


def evaluate_lexical(index: LexicalIndex, task: RetrievalTask, *, ks: Sequence[int] = DEFAULT_KS) -> TaskResult:
    """A lexical baseline fitted on the task's corpus, on the task."""
    return evaluate_task(task, index.query_rows(task.queries), index.corpus_rows, ks=ks)


def metrics_table(results: Mapping[str, TaskResult]) -> pd.DataFrame:
    """One row per configuration, one column per metric (`recall@1` …, `mrr@10`, `ndcg@10`)."""
    return pd.DataFrame([{"configuration": name, **{shown_name(key): value for key, value in r.metrics.items()}}
                         for name, r in results.items()])


def recall_curves(results: Mapping[str, TaskResult], ks: Sequence[int]) -> pd.DataFrame:
    """Long table for the Recall@k figure: configuration, k, recall."""
    return pd.DataFrame([{"configuration": name, "k": k, "recall": r.metrics[recall_key(k)]}
                         for name, r in results.items() for k in ks])


def _per_query(task: RetrievalTask, hits: Hits, best: BestRelevant) -> pd.DataFrame:
    rows = []
    for q, query in enumerate(task.queries):
        wrong = next((j for j, doc in enumerate(hits.indices[q]) if int(doc) not in task.relevant[q]), None)
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
