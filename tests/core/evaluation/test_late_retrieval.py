"""A late-interaction model on a retrieval task scores as sentence-transformers'
MultiVectorInformationRetrievalEvaluator scores it (MaxSim or MeanMaxSim over its own encode_query / encode_document),
on the same folder; a fused stage takes its list as it takes a dense model's."""

import pytest
from sentence_transformers import MultiVectorEncoder
from sentence_transformers.multi_vector_encoder.evaluation import MultiVectorInformationRetrievalEvaluator

from core.data.stsb import stsb_corpus
from core.evaluation.lexical import fit_baseline
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import (
    RetrievalTask,
    build_task,
    evaluate_embeddings,
    evaluate_fused,
    late_stage,
    lexical_stage,
    paraphrase_pairs,
)
from core.models.loading import load_model
from core.settings import Settings

KS = (1, 5, 10)


@pytest.fixture(scope="module")
def small_task():
    """40 STS-B dev paraphrase queries over 400 sentence-1 texts (their relevant ones and others), no query in the
    corpus, so nothing is excluded."""
    every = paraphrase_pairs("dev")
    relevant_anywhere = {doc for docs in every.values() for doc in docs}
    pairs = dict([(query, docs) for query, docs in every.items() if query not in relevant_anywhere][:40])
    relevant = {doc for docs in pairs.values() for doc in docs}
    others = [text for text in stsb_corpus() if text not in relevant and text not in pairs][:400 - len(relevant)]
    task = build_task("small", pairs, sorted(relevant) + others)
    assert not any(task.exclude)
    return task


def _evaluator_metrics(task: RetrievalTask, reference: MultiVectorEncoder) -> dict[str, float]:
    evaluator = MultiVectorInformationRetrievalEvaluator(
        {f"q{i}": q for i, q in enumerate(task.queries)}, {f"c{i}": c for i, c in enumerate(task.corpus)},
        {f"q{i}": {f"c{d}" for d in docs} for i, docs in enumerate(task.relevant)}, precision_recall_at_k=list(KS),
        accuracy_at_k=[1], mrr_at_k=[10], ndcg_at_k=[10], map_at_k=[10], write_csv=False)
    found = evaluator(reference)
    name = reference.similarity_fn_name
    return {f"{name}_recall@{k}": found[f"{name}_recall@{k}"] for k in KS} | \
        {f"{name}_mrr@10": found[f"{name}_mrr@10"], f"{name}_ndcg@10": found[f"{name}_ndcg@10"]}


def _without_near_ties(task: RetrievalTask, reference: MultiVectorEncoder, depth: int) -> RetrievalTask:
    """The task's queries whose top `depth` + 1 scores, as sentence-transformers computes them, are all at least
    1e-5 of the best apart: a closer pair (a random model's scores crowd together) falls either way in float32
    rounding, so the order of both sides is compared only where it is defined."""
    scores = reference.similarity(reference.encode_query(task.queries), reference.encode_document(task.corpus))
    top = scores.topk(depth + 1, dim=1).values
    keep = [q for q in range(len(task.queries))
            if bool((top[q, :-1] - top[q, 1:] >= 1e-5 * max(1.0, abs(float(top[q, 0])))).all())]
    assert len(keep) >= len(task.queries) * 0.7
    return RetrievalTask(task.name, [task.queries[q] for q in keep], task.corpus, [task.relevant[q] for q in keep],
                         [task.missing[q] for q in keep], [task.exclude[q] for q in keep])


@pytest.mark.parametrize("name", ["colbert", "pooled-meanmaxsim"])
def test_retrieval_metrics_equal_the_multi_vector_evaluator(late_folders, small_task, name):
    model = load_model(str(late_folders[name]), "cpu")
    reference = MultiVectorEncoder(str(late_folders[name]), device="cpu", local_files_only=True)
    task = _without_near_ties(small_task, reference, max(KS))
    result = evaluate_embeddings(model, task, Settings(model_id=model.model_id), ks=KS)
    assert result.score == reference.similarity_fn_name
    assert result.metrics == pytest.approx(_evaluator_metrics(task, reference), abs=1e-6)
    assert {shown_name(key) for key in result.metrics} >= {"recall@1", "mrr@10", "ndcg@10"}


def test_a_late_stage_fuses_with_bm25_by_its_own_list(late_folders, small_task):
    model = load_model(str(late_folders["colbert"]), "cpu")
    stage = late_stage(model, small_task)
    lexical = lexical_stage(fit_baseline("bm25", small_task.corpus), small_task)
    fused = evaluate_fused(small_task, stage, lexical, ks=KS, depth=20)
    late_list, bm25_list = stage.hits(small_task, 20).indices, lexical.hits(small_task, 20).indices
    found = fused.per_query["relevant text"]
    assert (found != "").any()
    for q, text in found.items():  # a relevant text the fused list holds comes from one of the two lists
        if text:
            assert small_task.corpus.index(text) in set(late_list[q]) | set(bm25_list[q][bm25_list[q] >= 0])
    assert fused.score == "rrf"


def test_a_late_stage_feeds_the_reranker_its_top_n_of_every_query(late_folders, small_task, reranker_folder):
    from core.evaluation.rerank import rerank_task
    from core.models.reranker import load_reranker

    model = load_model(str(late_folders["colbert"]), "cpu")
    stage = late_stage(model, small_task)
    sweep = rerank_task(small_task, stage, load_reranker(str(reranker_folder), "cpu"), depths=[5], ks=KS)
    assert sweep.first.metrics == evaluate_embeddings(model, small_task, Settings(model_id=model.model_id),
                                                      ks=KS).metrics
    assert sweep.pairs == 5 * len(small_task.queries)
