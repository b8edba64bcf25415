"""Late interaction's quick checks against sentence-transformers: documents pooled as encode_document's per-call
HierarchicalTokenPooling pools them, each pool factor's metrics as MultiVectorInformationRetrievalEvaluator gives them
for a model with that pooling in its pipeline, factor 1 the same as no pooling; the query expansion switched off in a
copy, as a model loaded with query_expansion=None encodes, the shared model left as it was."""

import numpy as np
import pytest
from scipy.stats import spearmanr
from sentence_transformers import MultiVectorEncoder
from sentence_transformers.multi_vector_encoder.modules import HierarchicalTokenPooling

from core.encoding.late.cache import cached_token_matrix, late_key
from core.encoding.late.tokens import encode_multivector
from core.evaluation.late_variants import (
    SPEARMAN,
    LateEmbedded,
    expansion_check,
    pooled,
    pooling_check,
    sts_texts,
    unexpanded_queries,
    without_query_expansion,
)
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import evaluate_stage, late_stage, token_stage
from core.evaluation.sts import PairRows, late_pair_scores, pair_rows
from core.evaluation.variants import CHECK_KS
from core.models.loading import load_model
from tests.core.evaluation.test_late_evaluation import small_paraphrase_task
from tests.references import multi_vector_retrieval, without_near_ties


@pytest.fixture(scope="module")
def small_task():
    return small_paraphrase_task(30, 250)


@pytest.fixture(scope="module")
def small_sts() -> PairRows:
    full = pair_rows("dev")
    return PairRows("dev", full.sentences, full.first[:60], full.second[:60], full.gold[:60])


def _vectors(model, task, sts: PairRows) -> LateEmbedded:
    stage = late_stage(model, task)
    first, second = sts_texts(sts)
    return LateEmbedded(stage.queries, stage.corpus, cached_token_matrix(model, first, "query"),
                        cached_token_matrix(model, second, "document"))


@pytest.mark.parametrize("factor", [2, 3])
def test_pooled_documents_equal_encode_documents_per_call_pooling(late_folders, small_task, factor):
    model = load_model(str(late_folders["colbert"]), "cpu")
    texts = small_task.corpus[:40]
    plain = cached_token_matrix(model, texts, "document")
    ours = pooled(model, plain, factor).per_text()
    theirs = model.multivector.encode_document(texts, token_pooling=HierarchicalTokenPooling(factor))
    assert [len(vectors) for vectors in ours] == [len(vectors) for vectors in theirs]
    assert all(np.allclose(a, b.numpy(), atol=1e-5) for a, b in zip(ours, theirs))
    assert all(len(a) < len(b) for a, b in zip(ours, plain.per_text()) if len(b) > 2)


@pytest.mark.parametrize("name", ["colbert", "stanford"])
def test_pool_factor_one_is_no_pooling_and_the_index_shrinks_with_the_factor(late_folders, small_task, small_sts,
                                                                             name):
    model = load_model(str(late_folders[name]), "cpu")
    vectors = _vectors(model, small_task, small_sts)
    table = pooling_check(model, small_task, vectors, small_sts).set_index("pool factor")
    plain = evaluate_stage(small_task, token_stage(model, vectors.queries, vectors.corpus), ks=CHECK_KS)
    assert table.loc[1, "index bytes"] == sum(v.size for v in vectors.corpus.per_text()) * 4
    assert table.loc[1, "vectors per text"] == np.mean([len(v) for v in vectors.corpus.per_text()])
    assert table.loc[1, list(map(shown_name, plain.metrics))].to_dict() == pytest.approx(
        {shown_name(k): v for k, v in plain.metrics.items()}, abs=1e-6)
    sts = late_pair_scores(model, vectors.sts_queries, vectors.sts_documents)
    assert table.loc[1, SPEARMAN] == pytest.approx(spearmanr(small_sts.gold, sts).statistic, abs=1e-6)
    assert (np.diff(table["index bytes"].to_numpy()) < 0).all()
    assert (np.diff(table["vectors per text"].to_numpy()) < 0).all()


def test_each_pool_factor_scores_as_the_evaluator_with_that_pooling_in_the_pipeline(late_folders, small_task):
    folder = str(late_folders["colbert"])
    model = load_model(folder, "cpu")
    for factor in (2, 4):
        reference = MultiVectorEncoder(folder, device="cpu")
        reference.append(HierarchicalTokenPooling(factor))
        task = without_near_ties(small_task, reference, 10)
        stage = late_stage(model, task)
        found = pooling_check(model, task, LateEmbedded(stage.queries, stage.corpus), factors=[factor]).iloc[0]
        expected = multi_vector_retrieval(task, reference, CHECK_KS)
        assert {shown_name(k): found[shown_name(k)] for k in expected} == pytest.approx(
            {shown_name(k): v for k, v in expected.items()}, abs=1e-6)


def test_pool_factor_one_leaves_the_tokens_of_a_model_without_normalize_as_they_are(tmp_path):
    from sentence_transformers.base.modules import Transformer

    from tests.multivector import TEXTS, _bert, _projection, _save

    folder = _save(tmp_path / "model", [Transformer(str(_bert(tmp_path / "bert"))), _projection()])
    model = load_model(str(folder), "cpu")
    assert not model.late_pipeline.normalizes
    documents = cached_token_matrix(model, TEXTS, "document")
    same = pooled(model, documents, 1).per_text()
    assert all(np.array_equal(a, b) for a, b in zip(same, documents.per_text()))
    merged = pooled(model, documents, 2).per_text()  # cluster means, left at the length the model gives them
    unnormalised = HierarchicalTokenPooling(2, normalize_embeddings=False)
    theirs = model.multivector.encode_document(TEXTS, token_pooling=unnormalised)
    assert all(np.allclose(a, b.numpy(), atol=1e-5) for a, b in zip(merged, theirs))


def test_query_expansion_off_is_a_copy_as_a_model_loaded_without_it_encodes(late_folders, small_task):
    folder = str(late_folders["colbert"])
    model = load_model(folder, "cpu")
    texts = small_task.queries[:5]
    before = encode_multivector(model, texts, role="query")
    expansion = dict(model.multivector[0].query_expansion)
    off = without_query_expansion(model)
    reference = MultiVectorEncoder(folder, device="cpu")
    reference[0].query_expansion = None
    theirs = reference.encode_query(texts)
    ours = encode_multivector(off, texts, role="query")
    assert all(np.allclose(a.vectors, b.numpy(), atol=1e-6) for a, b in zip(ours, theirs))
    assert not any(text.expansion.any() for text in ours) and all(text.expansion.any() for text in before)
    # the loaded model is as it was: its expansion, its memo's vectors, its weights shared rather than copied
    assert model.multivector[0].query_expansion == expansion and off.memo is not model.memo
    again = encode_multivector(model, texts, role="query")
    assert all(a is b for a, b in zip(again, before))
    assert np.array_equal(encode_multivector(load_model(folder, "cpu"), texts[:1], role="query")[0].vectors,
                          before[0].vectors)
    weights = model.multivector[0].auto_model.embeddings.word_embeddings.weight
    assert off.multivector[0].auto_model.embeddings.word_embeddings.weight is weights
    assert off.late_pipeline.expansion is None and model.late_pipeline.expansion == expansion
    assert late_key(off, texts, "query") != late_key(model, texts, "query")  # kept apart on disk


def test_the_expansion_check_reads_the_same_documents_with_and_without_expansion(late_folders, small_task, small_sts):
    model = load_model(str(late_folders["colbert"]), "cpu")
    vectors = _vectors(model, small_task, small_sts)
    table = expansion_check(model, small_task, vectors, unexpanded_queries(model, small_task, small_sts),
                            small_sts).set_index("query expansion")
    assert list(table.index) == ["on (the model's)", "off"]
    assert table.loc["on (the model's)", "expansion vectors"] > 0 and table.loc["off", "expansion vectors"] == 0
    plain = evaluate_stage(small_task, token_stage(model, vectors.queries, vectors.corpus), ks=CHECK_KS)
    assert table.loc["on (the model's)", "recall@1"] == plain.metrics["maxsim_recall@1"]
    reference = MultiVectorEncoder(str(late_folders["colbert"]), device="cpu")
    reference[0].query_expansion = None
    first, second = sts_texts(small_sts)
    similarity = reference.similarity_pairwise(reference.encode_query(first), reference.encode_document(second))
    assert table.loc["off", SPEARMAN] == pytest.approx(spearmanr(small_sts.gold, similarity.numpy()).statistic,
                                                       abs=1e-6)
