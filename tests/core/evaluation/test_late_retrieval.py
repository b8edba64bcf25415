"""A late-interaction model on a retrieval task scores as sentence-transformers'
MultiVectorInformationRetrievalEvaluator scores it (the query's own text masked out, as the app leaves it out); the
per-token matrix of a few texts is the model's own similarity per query token."""

import numpy as np
import pytest

from core.analysis.late_matrix import per_token_matrix
from core.data.stsb import stsb_corpus
from core.evaluation.late_retrieval import evaluate_late
from core.evaluation.retrieval import build_task
from core.models.loading import load_model
from tests.multivector import TEXTS
from tests.references import multi_vector_information_retrieval

KS = (1, 3, 10)


@pytest.fixture(scope="module", params=["colbert", "pooled-meanmaxsim"])
def model(request, late_folders):
    return load_model(str(late_folders[request.param]), "cpu")


def small_task():
    corpus = stsb_corpus()[:120]
    pairs = {corpus[5]: {corpus[6], corpus[40]},  # a query that is itself a corpus text: never its own hit
             "A man is playing a guitar.": {corpus[3], "a relevant text missing from the corpus"},
             "Stocks fell sharply.": {corpus[11]}, "Where do cats sleep?": {corpus[77], corpus[2]}}
    return build_task("small", pairs, corpus)


def test_metrics_equal_multi_vector_information_retrieval_evaluator(model):
    task = small_task()
    assert task.exclude[0] and task.missing[1]
    ours = evaluate_late(model, task, ks=KS)
    expected = multi_vector_information_retrieval(model.folder, task, KS)
    assert set(ours) == set(expected)
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


def test_progress_counts_the_corpus_then_the_queries(model):
    task = small_task()
    seen: list[tuple[int, int]] = []
    evaluate_late(load_model(str(model.folder), "cpu"), task, ks=(1,), progress=lambda done, total: seen.append(
        (done, total)))
    total = len(set(task.corpus)) + len(set(task.queries))
    assert seen[-1] == (total, total) and all(b == total for _, b in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_the_per_token_matrix_is_the_models_similarity_over_each_querys_token_count(model):
    from sentence_transformers import MultiVectorEncoder

    reference = MultiVectorEncoder(str(model.folder), device="cpu", local_files_only=True)
    queries = reference.encode_query(TEXTS)
    expected = reference.similarity(queries, reference.encode_document(TEXTS)).numpy()
    if reference.similarity_fn_name == "maxsim":
        expected = expected / np.array([len(q) for q in queries])[:, None]
    ours = per_token_matrix(model, TEXTS)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)
    assert np.abs(ours).max() <= 1 + 1e-5  # normalised token vectors: a mean of cosines
