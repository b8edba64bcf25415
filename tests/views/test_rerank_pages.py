"""Rerankers in the pages, in AppTest: never offered as the sidebar's model; on Retrieval a first stage's top N
reranked as CrossEncoder.rank orders them, each hit's move shown; on Evaluation the metrics against N and the
reranker's STS-B correlation as CrossEncoderCorrelationEvaluator gives it; on Fine-tune a reranker's card."""

import json
import shutil

import pytest
import streamlit as st
from sentence_transformers import CrossEncoder
from sentence_transformers.cross_encoder.evaluation import CrossEncoderCorrelationEvaluator

from core.analysis.lexical import fit_baseline
from core.data.stsb import load_stsb
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import paraphrase_task
from core.models.catalog import CARD, finetuned_dir
from tests.conftest import app_test
from tests.figures import figure
from tests.references import information_retrieval
from tests.views.cache_fill import prefill

NAME = "page-reranker"
CORPUS = ["Someone is playing a guitar.", "The stock market fell sharply today.", "A cat sleeps on the rug.",
          "A man plays an acoustic guitar on stage.", "Guitar lessons for beginners."]


@pytest.fixture
def installed(reranker_folder):
    """The tiny CrossEncoder as a reranker of this machine's catalog (as Fine-tune saves one)."""
    target = finetuned_dir() / NAME
    shutil.copytree(reranker_folder, target)
    card = {"kind": "reranker", "base": "all-MiniLM-L6-v2", "data": "STS-B train", "objective": "reranker",
            "parameters": {"batch_size": 16, "learning_rate": 2e-5, "warmup_ratio": 0.1, "seed": 42}, "steps": 2,
            "total_steps": 2, "stopped": False, "seconds": 1.0, "date": "2026-11-25", "pairs": 8, "losses": [],
            "split": "test", "before": {"spearman": 0.82}, "after": {"spearman": 0.10}}
    (target / CARD).write_text(json.dumps(card), encoding="utf-8")
    st.cache_data.clear()
    yield CrossEncoder(str(target), device="cpu")
    shutil.rmtree(target)
    st.cache_data.clear()


def test_a_reranker_is_not_offered_as_the_sidebars_model(installed):
    at = app_test("views/home.py")
    assert NAME not in at.sidebar.selectbox(key="sb_model").options


def test_retrieval_reranks_the_first_stages_top_n_as_crossencoder_rank_does(installed):
    at = app_test("views/retrieval.py", ret_source="Paste texts", ret_paste="\n".join(CORPUS),
                  ret_query="A man plays the guitar.", ret_rerank_first="BM25", ret_rerank_n="3")
    assert not at.exception and not at.error
    first = at.table[-2].value
    reranked = at.table[-1].value
    expected = installed.rank("A man plays the guitar.", first["text"].tolist())
    assert reranked["text"].tolist() == [first["text"].iloc[hit["corpus_id"]] for hit in expected]
    assert reranked["reranker score"].tolist() == pytest.approx([hit["score"] for hit in expected], abs=1e-4)
    moves = [hit["corpus_id"] + 1 - rank for rank, hit in enumerate(expected, start=1)]
    assert reranked["move"].tolist() == moves
    lines = [trace for trace in figure(at, "ret_rerank_moves").data if trace.mode == "lines+markers"]
    assert len(lines) == len(first)


def test_without_a_reranker_retrieval_says_how_to_make_one():
    at = app_test("views/retrieval.py", ret_source="Paste texts", ret_paste="\n".join(CORPUS))
    assert not at.exception
    assert any("No reranker on this machine yet" in box.value for box in at.info)


def test_evaluation_reranks_at_every_depth_and_sets_the_rerankers_sts_beside(installed, minilm):
    task = paraphrase_task("dev")
    prefill(minilm, task.corpus, seed=80)
    prefill(minilm, task.queries, seed=81)
    at = app_test("views/evaluation.py", ev_section="Rerank", ev_rerank_first="BM25")
    assert not at.exception and not at.error
    frame = at.dataframe[0].value
    assert frame["top N reranked"].tolist() == [0, 1, 5, 10, 20, 50]
    index = fit_baseline("bm25", task.corpus)
    first = {shown_name(k): v for k, v in information_retrieval(task, index.query_rows(task.queries),
                                                                 index.corpus_rows, (1, 5, 10, 20, 50)).items()}
    assert frame.iloc[0]["recall@1"] == pytest.approx(first["recall@1"], abs=1e-6)
    assert frame.iloc[1]["recall@1"] == pytest.approx(first["recall@1"], abs=1e-6)  # the top 1 alone: no change
    pairs = load_stsb("dev")
    expected = CrossEncoderCorrelationEvaluator([[p.sentence1, p.sentence2] for p in pairs], [p.score for p in pairs],
                                                write_csv=False)(installed)
    shown = {m.label: m.value for m in at.metric}
    assert float(shown[f"{NAME} (the pair read together)"]) == pytest.approx(expected["spearman"], abs=1e-4)


def test_fine_tune_offers_a_reranker_and_shows_its_card(installed):
    at = app_test("views/finetune.py")
    at.radio(key="ft_objective").set_value("reranker").run()
    assert any("A reranker (cross-encoder) is measured on STS-B test" in box.value for box in at.info)
    at.selectbox(key="ft_pick").set_value(NAME).run()
    assert not at.exception
    bars = figure(at, "ft_bars")
    assert list(bars.data[0].x) == ["STS-B test Spearman"]
    assert any("the reranker reading both sentences together" in c.value for c in at.caption)
    assert not [chart for chart in at.get("plotly_chart") if "heatmap" in chart.proto.id]
