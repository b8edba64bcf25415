"""A late-interaction model on Evaluation's task, against sentence-transformers: each query's own text excluded as the
task excludes it, its metrics as MultiVectorInformationRetrievalEvaluator gives them on the tiny folders of
tests/multivector.py saved as sentence-transformers, PyLate and Stanford save them; its STS-B correlation as an
independent computation with the model's own similarity_pairwise; a hybrid with a dense model as
ReciprocalRankFusionEvaluator fuses, its top N in a CrossEncoder's order."""

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr
from sentence_transformers import MultiVectorEncoder

from core.data.stsb import load_stsb
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import (
    RetrievalTask,
    Scored,
    build_task,
    evaluate_embeddings,
    evaluate_fused,
    evaluate_stage,
    late_stage,
    paraphrase_task,
)
from core.evaluation.sts import correlation, sts_frame
from core.models.loading import load_model
from core.settings import Settings
from tests.references import multi_vector_retrieval as evaluator_metrics
from tests.references import without_near_ties

KS = (1, 5, 10)


@pytest.fixture(scope="module")
def small_task() -> RetrievalTask:
    return small_paraphrase_task()


def small_paraphrase_task(queries: int = 40, corpus_size: int = 400) -> RetrievalTask:
    """STS-B dev paraphrase queries over sentence-1 texts: their relevant ones, the queries' own texts where they are
    sentence-1 texts too (excluded from their rankings), and others."""
    full = paraphrase_task("dev")
    pairs = {full.queries[q]: {full.corpus[d] for d in full.relevant[q]} for q in range(queries)}
    kept = {full.corpus[d] for q in range(queries) for d in full.relevant[q] | full.exclude[q]}
    corpus = sorted(kept) + [text for text in full.corpus if text not in kept][:corpus_size - len(kept)]
    task = build_task("small", pairs, corpus)
    assert any(task.exclude)
    return task


@pytest.mark.parametrize("name", ["colbert", "pooled-meanmaxsim", "pylate", "stanford"])
def test_with_each_querys_own_text_excluded_the_metrics_equal_the_evaluator(late_folders, small_task, name):
    model = load_model(str(late_folders[name]), "cpu")
    reference = MultiVectorEncoder(str(late_folders[name]), device="cpu")
    task = without_near_ties(small_task, reference, max(KS))
    ours = evaluate_embeddings(model, task, Settings(model_id=model.model_id), ks=KS)
    assert ours.score == reference.similarity_fn_name
    assert ours.metrics == pytest.approx(evaluator_metrics(task, reference), abs=1e-6)
    ranks = ours.per_query["first relevant rank"].dropna()
    assert (ranks >= 1).all() and np.isfinite(ours.per_query["relevant score"].dropna()).all()
    assert (ours.per_query["top wrong hit"] != ours.per_query["query"]).all()  # a query's own text is never ranked


@pytest.mark.parametrize("name", ["colbert", "pooled-meanmaxsim"])
def test_sts_reads_sentence_1_as_the_query_and_sentence_2_as_the_document(late_folders, name, monkeypatch):
    pairs = load_stsb("dev")[:80]
    sentences = list(dict.fromkeys(s for p in pairs for s in (p.sentence1, p.sentence2)))
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: pairs)
    monkeypatch.setattr("core.evaluation.sts.stsb_sentences", lambda split: sentences)
    model = load_model(str(late_folders[name]), "cpu")
    reference = MultiVectorEncoder(str(late_folders[name]), device="cpu")
    similarity = reference.similarity_pairwise(reference.encode_query([p.sentence1 for p in pairs]),
                                               reference.encode_document([p.sentence2 for p in pairs])).numpy()
    gold = [p.score for p in pairs]
    frame = sts_frame(model, "dev")
    score = reference.similarity_fn_name
    assert np.allclose(frame[score], similarity, atol=1e-5)
    assert correlation(frame) == pytest.approx({f"spearman_{score}": spearmanr(gold, similarity).statistic,
                                                f"pearson_{score}": pearsonr(gold, similarity).statistic}, abs=1e-6)


def test_a_hybrid_of_a_dense_and_a_late_model_fuses_their_lists(minilm, late_folders, small_task):
    from sentence_transformers.sparse_encoder.evaluation import ReciprocalRankFusionEvaluator

    from core.evaluation.retrieval import task_vectors

    dense = Scored(*task_vectors(minilm, small_task, Settings()), "cosine", False)
    late = late_stage(load_model(str(late_folders["colbert"]), "cpu"), small_task)
    fused = evaluate_fused(small_task, dense, late, ks=(1, 10))

    def samples(stage):
        hits = stage.hits(small_task, 100)
        return [{"query_id": str(q), "query": query, "positive": [str(d) for d in small_task.relevant[q]],
                 "documents": [str(d) for d in hits.indices[q] if d >= 0]}
                for q, query in enumerate(small_task.queries)]

    expected = ReciprocalRankFusionEvaluator(samples(dense), samples(late), at_k=10, write_csv=False)()
    assert fused.metrics["rrf_mrr@10"] == pytest.approx(expected["mrr@10"], abs=1e-9)
    assert fused.metrics["rrf_ndcg@10"] == pytest.approx(expected["ndcg@10"], abs=1e-9)


def test_a_late_models_top_n_reranked_by_a_cross_encoder(late_folders, small_task, reranker_folder):
    from sentence_transformers import CrossEncoder

    from core.evaluation.rerank import rerank_task
    from core.models.reranker import load_reranker

    late = late_stage(load_model(str(late_folders["colbert"]), "cpu"), small_task)
    sweep = rerank_task(small_task, late, load_reranker(str(reranker_folder), "cpu"), depths=[10], ks=(1, 10))
    assert sweep.first.metrics == evaluate_stage(small_task, late, ks=(1, 10)).metrics
    first = late.hits(small_task, 10).indices
    cross = CrossEncoder(str(reranker_folder), device="cpu")
    for q in range(3):  # the reranked top 10 is the first stage's top 10 in the cross-encoder's order
        scores = cross.predict([(small_task.queries[q], small_task.corpus[d]) for d in first[q]])
        order = first[q][np.argsort(-scores, kind="stable")]
        reranked = sweep.reranked[10].per_query.iloc[q]
        assert reranked["query"] == small_task.queries[q]
        best = next((d for d in order if d in small_task.relevant[q]), None)
        assert (reranked["relevant text"] == small_task.corpus[best]) if best is not None else \
            reranked["relevant text"] == ""
    assert {shown_name(key) for key in sweep.reranked[10].metrics} == {"recall@1", "recall@10", "mrr@10", "ndcg@10"}


def test_a_late_stage_fuses_with_bm25_by_its_own_list(late_folders, small_task):
    from core.analysis.lexical import fit_baseline
    from core.evaluation.retrieval import lexical_stage

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
