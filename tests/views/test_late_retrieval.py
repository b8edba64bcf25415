"""Retrieval on a late-interaction model, in AppTest: the corpus ranked by the model's own MaxSim (checked against
its MultiVectorEncoder's similarity), each hit's strongest token matches, a hit's alignment whose shares sum to its
score, the built-in corpus encoded in the background queue, BM25 fused with its list, and a late-interaction dataset
folder searched exactly or by token-index candidates."""

import numpy as np
import pytest
from sentence_transformers import MultiVectorEncoder

from core.analysis.late import index as token_index
from core.data.datasets import Manifest, write_manifest
from core.data.late_parquet import late_parquet
from core.data.stsb import stsb_corpus
from core.deployment import load_config
from core.encoding.late.tokens import encode_multivector
from core.jobs import JOBS
from core.models.loading import load_model
from core.scale.inputs import filesystem
from core.settings import Settings
from tests.conftest import app_test, app_test_on_model
from tests.references import assert_top_order

pytestmark = pytest.mark.usefixtures("one_omp_thread")  # HNSW graphs the same on every run

PAGE = "views/retrieval.py"
QUERY = "A man is playing a guitar."
CORPUS = ["A man plays the guitar on stage.", "A woman slices an onion.", "The stock market fell sharply today.",
          "Someone is playing an instrument.", "A cat sleeps on the warm rug.", "Two men play guitars and sing."]


@pytest.fixture(scope="module")
def folder(late_folders):
    return str(late_folders["colbert"])


@pytest.fixture(scope="module")
def reference(folder):
    return MultiVectorEncoder(folder, device="cpu", local_files_only=True)


def maxsim_order(reference, query: str, texts: list[str]) -> tuple[list[int], np.ndarray]:
    """The texts best first by the MultiVectorEncoder's own MaxSim (an order that near ties leave open: compare with
    assert_top_order), and the scores."""
    scores = reference.similarity(reference.encode_query([query]), reference.encode_document(texts)).numpy()[0]
    return np.argsort(-scores, kind="stable").tolist(), scores


def best_scores(scores: np.ndarray, k: int | None = None) -> np.ndarray:
    """The k highest scores, best first: what a list in any order that near ties allow shows."""
    return -np.sort(-scores)[:k]


def test_a_pasted_corpus_is_ranked_by_maxsim_with_each_hits_token_matches(folder, reference):
    at = app_test_on_model(folder, PAGE)
    at.radio(key="ret_source").set_value("Paste texts").run()
    at.text_area(key="ret_paste").set_value("\n".join(CORPUS)).run()
    at.text_input(key="ret_query").set_value(QUERY).run()
    assert not at.exception and not at.error
    listed = at.table[0].value
    order, scores = maxsim_order(reference, QUERY, CORPUS)
    assert_top_order([CORPUS.index(text) for text in listed["text"]], scores)
    np.testing.assert_allclose(listed["score"].to_numpy(float), best_scores(scores), rtol=1e-5)
    assert all(" → " in line for line in listed["token matches"])  # query token → hit token similarity
    assert any("token vectors of 16 dimensions" in c.value and "MaxSim score, exact" in c.value for c in at.caption)
    matches = at.dataframe[0].value  # why the first hit: one row per query token
    assert matches["share of score"].sum() == pytest.approx(scores[order[0]], abs=1e-4)
    assert matches["query token"].tolist() == list(encode_multivector(load_model(folder, "cpu"), [QUERY],
                                                                      role="query")[0].tokens)
    assert set(matches["kind"]) == {"typed", "prompt", "expansion"}
    assert any("The shares sum to the score" in c.value for c in at.caption)


def test_the_built_in_corpus_is_encoded_in_the_background_and_fused_with_bm25(folder, reference):
    at = app_test_on_model(folder, PAGE)
    assert not at.exception
    if JOBS.unfinished():  # a first visit: the lexical lists at once, the model's once the queue has encoded it
        assert any("the model's ranking joins them when the corpus is embedded" in c.value for c in at.caption)
        assert JOBS.wait_idle(900)
        at.run()
    assert not at.exception and not at.error
    corpus = stsb_corpus()
    listed = at.table[0].value
    _, scores = maxsim_order(reference, QUERY, corpus)
    row = {text: i for i, text in enumerate(corpus)}  # the built-in corpus's texts are distinct
    assert_top_order([row[text] for text in listed["text"]], scores, 10)
    assert any("7,977 texts encoded as documents" in c.value for c in at.caption)
    assert f"hybrid: {folder} + BM25 list" in [tab.label for tab in at.tabs]


@pytest.fixture
def late_dataset(tmp_path, monkeypatch, folder):
    texts = list(stsb_corpus()[:300])
    model = load_model(folder, "cpu")
    dataset = tmp_path / "late"
    dataset.mkdir()
    late_parquet(str(dataset / "part-0.parquet"), texts, encode_multivector(model, texts), 16)
    write_manifest(*filesystem(str(dataset)), Manifest(Settings(model_id=folder, role="document")))
    monkeypatch.setenv("EXPLORER_DATASETS", str(dataset))
    load_config.cache_clear()
    yield texts
    monkeypatch.delenv("EXPLORER_DATASETS")
    load_config.cache_clear()


def test_a_late_interaction_dataset_answers_a_typed_query_by_exact_maxsim(late_dataset, reference):
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Dataset: late").run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    _, scores = maxsim_order(reference, QUERY, late_dataset)
    assert_top_order(table["index"].tolist(), scores, 10)
    np.testing.assert_allclose(table["score"].to_numpy(float), best_scores(scores, 10), rtol=1e-5)
    assert any("answered by exact MaxSim over" in c.value for c in at.caption)
    assert any("encode_query" in c.value for c in at.caption)
    assert all(" → " in line for line in table["token matches"])


def test_past_the_exact_range_a_token_index_is_built_in_the_queue_with_its_recall(late_dataset, monkeypatch,
                                                                                  reference):
    monkeypatch.setattr(token_index, "EXACT_UP_TO_TOKENS", 100)
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Dataset: late").run()
    assert JOBS.wait_idle(300)
    at.run()
    assert not at.exception and not at.error
    caption = next(c.value for c in at.caption if "candidates from a FAISS HNSW graph" in c.value)
    assert "recall@10 against exact MaxSim" in caption
    order, _ = maxsim_order(reference, QUERY, late_dataset)
    found = at.dataframe[0].value["index"].tolist()
    assert len(set(found) & set(order[:10])) >= 8  # candidates, then exact MaxSim: most of the exact top 10
