"""A late-interaction model on a retrieval task: queries encoded as queries, the corpus as documents (each text's
token vectors from the model's own encode_query / encode_document), every corpus text scored by the model's own
similarity (MaxSim or MeanMaxSim, exact), the ranking scored as sentence-transformers'
MultiVectorInformationRetrievalEvaluator scores it, a query's own text never ranked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.analysis.late_interaction import top_k
from core.encoding.multivector import encode_multivector
from core.evaluation.metrics import DEFAULT_KS
from core.evaluation.retrieval import RetrievalTask, ranked_metrics, ranking_depth
from core.models.loading import LoadedModel


def late_ranking(model: LoadedModel, task: RetrievalTask, depth: int, *,
                 progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Each query's `depth` best corpus texts (indices, best first) by the model's own similarity, the texts
    `task.exclude` names for a query left out; `progress(done, total)` counts texts encoded, corpus first."""
    corpus_size = len(set(task.corpus))

    def counted(offset: int) -> Callable[[int, int], None] | None:
        if progress is None:
            return None
        total = corpus_size + len(set(task.queries))
        return lambda done, _: progress(offset + done, total)

    documents = encode_multivector(model, task.corpus, role="document", progress=counted(0))
    queries = encode_multivector(model, task.queries, role="query", progress=counted(corpus_size))
    extra = max((len(texts) for texts in task.exclude), default=0)
    found, _ = top_k(model, queries, documents, depth + extra)
    kept = [[int(doc) for doc in row if int(doc) not in task.exclude[q]][:depth] for q, row in enumerate(found)]
    return np.array(kept, np.int64).reshape(len(kept), -1)


def evaluate_late(model: LoadedModel, task: RetrievalTask, *, ks: Sequence[int] = DEFAULT_KS,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, float]:
    """Recall@k, MRR@10 and nDCG@10 under the model's similarity's name (`maxsim_recall@1` …), as the evaluator
    names them."""
    if not task.queries:
        raise ValueError("The task has no queries with a relevant text.")
    ranked = late_ranking(model, task, ranking_depth(ks), progress=progress)
    return ranked_metrics(task, ranked, ks, model.late_pipeline.similarity)
