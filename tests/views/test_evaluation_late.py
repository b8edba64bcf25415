"""Evaluation with a late-interaction model in the sidebar, in AppTest, on a cut of STS-B (so its corpus of about a
thousand texts is embedded by the tiny ColBERT in the background queue within seconds): the configurations table with
the late model beside a dense model, a hybrid and the late model's top N reranked; STS-B read as query against
document; the Rerank section with the late model as first stage; the token-pooling and query-expansion checks."""

from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from scipy.stats import spearmanr
from sentence_transformers import MultiVectorEncoder

from core.analysis.lexical import fit_baseline
from core.data import stsb
from core.data.stsb import SPLITS, stsb_corpus
from core.evaluation.metrics import shown_name
from core.evaluation.rerank import rerank_task
from core.evaluation.retrieval import evaluate_fused, evaluate_stage, late_stage, lexical_stage, paraphrase_task
from core.evaluation.sts import pair_rows
from core.jobs import JOBS
from core.models.loading import load_model
from core.models.reranker import load_reranker
from tests.conftest import app_test_on_model
from tests.references import information_retrieval
from tests.views.cache_fill import prefill
from tests.views.test_rerank_pages import NAME, installed  # noqa: F401 - the reranker fixture

PAGE = "views/evaluation.py"
CUT = {"train": 900, "dev": 200, "test": 150}  # lines kept of each split
MODEL_ROW = "all-MiniLM-L6-v2 · default · layer last"


@pytest.fixture(scope="module")
def small_stsb(tmp_path_factory):
    """STS-B cut to its first lines, for every reader of it (the task, the corpus, STS), caches cleared around."""
    from ui.work.background import BACKGROUND_FROM

    source, folder = stsb.stsb_folder(), tmp_path_factory.mktemp("stsb")
    for split in SPLITS:
        lines = (source / f"sts-{split}.csv").read_text(encoding="utf-8").splitlines(keepends=True)
        (folder / f"sts-{split}.csv").write_text("".join(lines[:CUT[split]]), encoding="utf-8")
    patch = pytest.MonkeyPatch()
    patch.setattr(stsb, "stsb_folder", lambda: Path(folder))
    stsb.load_stsb.cache_clear()
    st.cache_data.clear()
    assert len(stsb_corpus()) >= BACKGROUND_FROM  # so the corpus goes through the queue
    yield
    patch.undo()
    stsb.load_stsb.cache_clear()
    st.cache_data.clear()


@pytest.fixture(scope="module")
def colbert(late_folders, small_stsb) -> str:
    return str(late_folders["colbert"])


def _settled(at):
    """The page once every background job it started is done (its fragment would rerun it)."""
    assert JOBS.wait_idle(900)
    at.run()
    assert JOBS.wait_idle(900)
    return at.run()


def _page(folder: str, **values):
    at = app_test_on_model(folder, PAGE)
    for key, value in values.items():
        at.radio(key=key).set_value(value).run()
    return _settled(at)


def _metrics(result) -> dict[str, float]:
    return {shown_name(key): value for key, value in result.metrics.items()}


def test_the_configurations_table_holds_the_late_model_beside_a_dense_one_a_hybrid_and_a_rerank(colbert, minilm,
                                                                                                 installed):  # noqa: F811
    task = paraphrase_task("dev")
    dense = (prefill(minilm, task.queries, seed=1), prefill(minilm, stsb_corpus()))
    at = _page(colbert)
    assert not at.exception and not at.error
    assert "does not show" not in " ".join(info.value for info in at.info)
    table = at.dataframe[0].value.set_index("configuration")
    assert list(table.index) == [colbert, "TF-IDF", "bag of words", "BM25", f"hybrid: {colbert} + BM25"]
    model = load_model(colbert, "cpu")
    late = late_stage(model, task)
    assert table.loc[colbert].to_dict() == pytest.approx(_metrics(evaluate_stage(task, late)), abs=1e-9)
    bm25 = lexical_stage(fit_baseline("bm25", task.corpus), task)
    assert table.loc[f"hybrid: {colbert} + BM25"].to_dict() == pytest.approx(
        _metrics(evaluate_fused(task, late, bm25)), abs=1e-9)
    assert "own markers or prompts" in " ".join(caption.value for caption in at.caption)

    at.multiselect(key="ev_models").set_value([colbert, minilm.model_id]).run()
    at.multiselect(key="ev_reranked").set_value([colbert]).run()
    at.selectbox(key="ev_rerank_n").set_value(10).run()
    at = _settled(at)
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("configuration")
    row = f"reranked: {colbert} · top 10 by {NAME}"
    assert list(table.index) == [colbert, MODEL_ROW, "TF-IDF", "bag of words", "BM25", f"hybrid: {colbert} + BM25",
                                 row]
    reference = information_retrieval(task, *dense, (1, 5, 10, 20, 50))
    assert table.loc[MODEL_ROW].to_dict() == pytest.approx({c: reference[f"cosine_{c}"] for c in table.columns},
                                                           abs=1e-6)
    sweep = rerank_task(task, late, load_reranker(NAME, "cpu"))
    assert table.loc[row].to_dict() == pytest.approx(_metrics(sweep.reranked[10]), abs=1e-9)


def test_sts_reads_sentence_1_as_the_query_and_sentence_2_as_the_document(colbert):
    at = _page(colbert, ev_section="STS correlation")
    assert not at.exception and not at.error
    rows = pair_rows("dev")
    reference = MultiVectorEncoder(colbert, device="cpu")
    similarity = reference.similarity_pairwise(reference.encode_query([rows.sentences[i] for i in rows.first]),
                                               reference.encode_document([rows.sentences[i] for i in rows.second]))
    assert float(at.metric[0].value) == pytest.approx(spearmanr(rows.gold, similarity.numpy()).statistic, abs=1e-4)
    assert "sentence 1 is read as the query" in " ".join(caption.value for caption in at.caption)
    assert "not shown for a late-interaction model" in at.info[0].value


def test_the_rerank_section_reranks_the_late_models_top_n(colbert, installed):  # noqa: F811
    at = _page(colbert, ev_section="Rerank")
    assert not at.exception and not at.error
    frame = at.dataframe[0].value.set_index("top N reranked")
    task = paraphrase_task("dev")
    late = late_stage(load_model(colbert, "cpu"), task)
    shown = ["recall@1", "mrr@10", "ndcg@10"]
    expected = _metrics(evaluate_stage(task, late))
    assert frame.loc[0, shown].to_dict() == pytest.approx({k: expected[k] for k in shown}, abs=1e-9)
    assert "token vectors compared" in at.metric[0].label


def test_token_pooling_shrinks_the_index_from_the_models_own_size(colbert):
    at = _page(colbert, ev_section="Model checks")
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("pool factor")
    assert list(table.index) == [1, 2, 3, 4]
    task = paraphrase_task("dev")
    reference = MultiVectorEncoder(colbert, device="cpu")
    documents = reference.encode_document(task.corpus)
    assert table.loc[1, "index bytes"] == sum(vectors.numel() for vectors in documents) * 4
    assert table.loc[1, "vectors per text"] == pytest.approx(np.mean([len(v) for v in documents]))
    assert (np.diff(table["index bytes"].to_numpy()) < 0).all()
    late = late_stage(load_model(colbert, "cpu"), task)
    assert table.loc[1, "recall@1"] == pytest.approx(_metrics(evaluate_stage(task, late, ks=(1, 10)))["recall@1"],
                                                     abs=1e-9)
    assert len(at.get("plotly_chart")) == 1


def test_query_expansion_on_and_off(colbert):
    at = _page(colbert, ev_section="Model checks")
    at.radio(key="ev_late_check").set_value("Query expansion").run()
    at = _settled(at)
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("query expansion")
    assert list(table.index) == ["on (the model's)", "off"]
    assert table.loc["off", "expansion vectors"] == 0 < table.loc["on (the model's)", "expansion vectors"]
    task = paraphrase_task("dev")
    reference = MultiVectorEncoder(colbert, device="cpu")
    reference[0].query_expansion = None
    off = reference.similarity(reference.encode_query(task.queries), reference.encode_document(task.corpus)).numpy()
    for q, own in enumerate(task.exclude):
        off[q, list(own)] = -np.inf
    top = off.argmax(axis=1)
    recall = np.mean([(top[q] in task.relevant[q]) / task.relevant_count(q) for q in range(len(task.queries))])
    # two encodes of the same texts in other batches differ in the last bit, which may turn one near tie
    assert table.loc["off", "recall@1"] == pytest.approx(recall, abs=1 / len(task.queries) + 1e-9)
    at.radio(key="ev_section").set_value("Retrieval (Recall@k)").run()  # the shared model still expands its queries
    table = _settled(at).dataframe[0].value.set_index("configuration")
    expected = _metrics(evaluate_stage(task, late_stage(load_model(colbert, "cpu"), task)))
    assert table.loc[colbert].to_dict() == pytest.approx(expected, abs=1e-9)
