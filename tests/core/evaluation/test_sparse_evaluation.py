"""A sparse model scored as sentence-transformers' SparseInformationRetrievalEvaluator and
SparseEmbeddingSimilarityEvaluator score it, on the same folder; hybrid search as its ReciprocalRankFusionEvaluator
fuses lists."""

import numpy as np
import pytest
from sentence_transformers import SparseEncoder
from sentence_transformers.sparse_encoder.evaluation import (
    SparseEmbeddingSimilarityEvaluator,
    SparseInformationRetrievalEvaluator,
)

from core.data.stsb import load_stsb, stsb_corpus
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import (
    RetrievalTask,
    Scored,
    build_task,
    evaluate_embeddings,
    evaluate_fused,
    paraphrase_pairs,
)
from core.evaluation.sts import correlation, sts_frame
from core.models.loading import load_model
from core.settings import Settings


@pytest.fixture(scope="module")
def small_task():
    """60 STS-B dev paraphrase queries over 300 sentence-1 texts (their relevant ones and others), no query in the
    corpus, so nothing is excluded."""
    every = paraphrase_pairs("dev")
    relevant_anywhere = {doc for docs in every.values() for doc in docs}
    pairs = dict([(query, docs) for query, docs in every.items() if query not in relevant_anywhere][:60])
    relevant = {doc for docs in pairs.values() for doc in docs}
    others = [text for text in stsb_corpus() if text not in relevant and text not in pairs][:300 - len(relevant)]
    task = build_task("small", pairs, sorted(relevant) + others)
    assert not any(task.exclude)
    return task


def _evaluator_metrics(task, reference, ks) -> dict[str, float]:
    evaluator = SparseInformationRetrievalEvaluator(
        {f"q{i}": q for i, q in enumerate(task.queries)}, {f"c{i}": c for i, c in enumerate(task.corpus)},
        {f"q{i}": {f"c{d}" for d in docs} for i, docs in enumerate(task.relevant)}, precision_recall_at_k=list(ks),
        accuracy_at_k=[1], mrr_at_k=[10], ndcg_at_k=[10], map_at_k=[10], write_csv=False)
    found = evaluator(reference)
    name = reference.similarity_fn_name
    return {f"{name}_recall@{k}": found[f"{name}_recall@{k}"] for k in ks} | \
        {f"{name}_mrr@10": found[f"{name}_mrr@10"], f"{name}_ndcg@10": found[f"{name}_ndcg@10"]}


def _without_near_ties(task: RetrievalTask, reference: SparseEncoder, depth: int) -> RetrievalTask:
    """The task's queries whose top `depth` + 1 scores, as sentence-transformers computes them, are all at least
    1e-5 apart: a closer pair (a random model's cosines crowd together) falls either way in float32 rounding, so
    the order of both sides is compared only where it is defined."""
    scores = reference.similarity(reference.encode_query(task.queries, convert_to_tensor=True),
                                  reference.encode_document(task.corpus, convert_to_tensor=True)).to_dense()
    top = scores.topk(depth + 1, dim=1).values
    keep = [q for q in range(len(task.queries)) if bool((top[q, :-1] - top[q, 1:] >= 1e-5).all())]
    assert len(keep) >= len(task.queries) * 0.8
    return RetrievalTask(task.name, [task.queries[q] for q in keep], task.corpus, [task.relevant[q] for q in keep],
                         [task.missing[q] for q in keep], [task.exclude[q] for q in keep])


@pytest.mark.parametrize("name", ["splade", "splade-prompted", "inference-free"])
def test_retrieval_metrics_equal_the_sparse_evaluators(sparse_folders, small_task, name):
    ks = (1, 5, 10)
    model = load_model(str(sparse_folders[name]), "cpu")
    reference = SparseEncoder(str(sparse_folders[name]), device="cpu")
    task = _without_near_ties(small_task, reference, max(ks))
    ours = evaluate_embeddings(model, task, Settings(model_id=model.model_id), ks=ks).metrics
    assert ours == pytest.approx(_evaluator_metrics(task, reference, ks), abs=1e-6)


def test_splade_tiny_on_the_small_task_equals_the_evaluator(splade, small_task):
    from sentence_transformers.sparse_encoder.modules import MLMTransformer, SpladePooling

    from core.models.packages import splade_folder

    reference = SparseEncoder(modules=[MLMTransformer(str(splade_folder())), SpladePooling("max")], device="cpu")
    ours = evaluate_embeddings(splade, small_task, Settings(model_id=splade.model_id), ks=(1, 10)).metrics
    assert ours == pytest.approx(_evaluator_metrics(small_task, reference, (1, 10)), abs=1e-6)


@pytest.mark.parametrize("name", ["splade", "splade-prompted"])
def test_sts_correlation_equals_the_sparse_similarity_evaluator(sparse_folders, name, monkeypatch):
    pairs = load_stsb("dev")[:80]
    sentences = list(dict.fromkeys(s for p in pairs for s in (p.sentence1, p.sentence2)))
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: pairs)
    monkeypatch.setattr("core.evaluation.sts.stsb_sentences", lambda split: sentences)
    model = load_model(str(sparse_folders[name]), "cpu")
    reference = SparseEncoder(str(sparse_folders[name]), device="cpu")
    expected = SparseEmbeddingSimilarityEvaluator([p.sentence1 for p in pairs], [p.sentence2 for p in pairs],
                                                  [p.score for p in pairs], write_csv=False)(reference)
    similarity = reference.similarity_fn_name
    found = correlation(sts_frame(model, "dev"))
    assert found == pytest.approx({f"pearson_{similarity}": expected[f"pearson_{similarity}"],
                                   f"spearman_{similarity}": expected[f"spearman_{similarity}"]}, abs=1e-6)


def test_a_hybrid_of_a_dense_and_a_sparse_model_fuses_their_lists(minilm, splade, small_task):
    from core.evaluation.retrieval import task_vectors

    dense = Scored(*task_vectors(minilm, small_task, Settings()), "cosine", False)
    sparse = Scored(*task_vectors(splade, small_task, Settings(model_id=splade.model_id)), "dot", True)
    fused = evaluate_fused(small_task, dense, sparse, ks=(1, 10))
    assert fused.score == "rrf" and set(fused.metrics) == {"rrf_recall@1", "rrf_recall@10", "rrf_mrr@10",
                                                            "rrf_ndcg@10"}
    from sentence_transformers.sparse_encoder.evaluation import ReciprocalRankFusionEvaluator

    def samples(stage):
        hits = stage.hits(small_task, 100)
        return [{"query_id": str(q), "query": query, "positive": [str(d) for d in small_task.relevant[q]],
                 "documents": [str(d) for d in hits.indices[q] if d >= 0]}
                for q, query in enumerate(small_task.queries)]

    expected = ReciprocalRankFusionEvaluator(samples(dense), samples(sparse), at_k=10, write_csv=False)()
    assert fused.metrics["rrf_mrr@10"] == pytest.approx(expected["mrr@10"], abs=1e-9)
    assert fused.metrics["rrf_ndcg@10"] == pytest.approx(expected["ndcg@10"], abs=1e-9)
    table_names = {shown_name(key) for key in fused.metrics}
    assert table_names == {"recall@1", "recall@10", "mrr@10", "ndcg@10"}
    assert (fused.per_query["first relevant rank"].dropna() >= 1).all()
    assert np.isfinite(fused.per_query["relevant score"].dropna()).all()
