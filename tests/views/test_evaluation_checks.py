"""Evaluation's model checks in AppTest, on cached vectors: each table equals sentence-transformers' evaluators on
the same vectors, truncated, quantised or prompted as the check says."""

import numpy as np
import pytest
import torch
from sentence_transformers.util import quantize_embeddings

from core.data.stsb import stsb_corpus
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import paraphrase_task
from core.evaluation.sts import pair_rows
from core.evaluation.variants import TRY_INSTRUCTION
from tests.conftest import app_test
from tests.references import embedding_similarity, information_retrieval
from tests.views.cache_fill import prefill

PAGE = "views/evaluation.py"
CHECKS = {"ev_section": "Model checks"}


@pytest.fixture(scope="module")
def cached(minilm):
    """Vectors for the dev paraphrase task and STS-B dev, plain and with the instruction the Prompts check offers."""
    task, sts = paraphrase_task("dev"), pair_rows("dev")
    return {"queries": prefill(minilm, task.queries, seed=1), "corpus": prefill(minilm, stsb_corpus()),
            "sentences": prefill(minilm, sts.sentences, seed=2),
            "typed queries": prefill(minilm, task.queries, prompt=TRY_INSTRUCTION, seed=3),
            "typed sentences": prefill(minilm, sts.sentences, prompt=TRY_INSTRUCTION, seed=4)}


def _expected(queries, corpus, sentences, d=None, score=None):
    task, sts = paraphrase_task("dev"), pair_rows("dev")
    options = {} if score is None else {"score": score}
    flat = information_retrieval(task, queries[:, :d], corpus[:, :d], (1, 10), **options)
    row = {shown_name(k): v for k, v in flat.items() if "accuracy" not in k}
    if sentences is not None:
        row["STS-B spearman"] = embedding_similarity(sentences[sts.first, :d], sentences[sts.second, :d],
                                                     sts.gold)["spearman_cosine"]
    return row


def _row(table, name, expected):
    assert table.loc[name, list(expected)].to_dict() == pytest.approx(expected, abs=1e-5), name


def test_dimensions_opens_on_the_full_sweep_each_point_as_the_evaluators_give_it(cached):
    at = app_test(PAGE, **CHECKS)
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("dimensions")
    assert list(table.index) == [32, 64, 128, 256, 384]
    for d in (32, 384):
        _row(table, d, _expected(cached["queries"], cached["corpus"], cached["sentences"], d))
    assert "declares no Matryoshka dimensions" in " ".join(c.value for c in at.caption)
    assert len(at.get("plotly_chart")) == 1


def test_a_bad_dimension_list_is_said_and_kept_for_correction(cached):
    at = app_test(PAGE, **CHECKS)
    at.text_input(key="ev_check_dims").set_value("32, 32, 900").run()
    assert not at.exception
    assert "384 dimensions: 900 cannot be kept" in at.error[0].value
    assert at.text_input(key="ev_check_dims").value == "32, 32, 900"


def test_quantisation_rows_equal_the_evaluator_on_quantised_scores(cached):
    at = app_test(PAGE, **CHECKS, ev_check="Quantisation")
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("precision")
    assert list(table.index) == ["float32", "int8", "binary", "binary, top 4×k rescored"]
    assert list(table["bytes per vector"]) == [1536, 384, 48, 48]
    queries, corpus = cached["queries"], cached["corpus"]

    def binary(a, b):
        bits = [np.unpackbits(quantize_embeddings(x.numpy(), precision="ubinary"), axis=1) for x in (a, b)]
        return -torch.from_numpy((bits[0][:, None, :] != bits[1][None, :, :]).sum(-1).astype(np.float32))

    _row(table, "float32", _expected(queries, corpus, None))
    _row(table, "binary", _expected(queries, corpus, None, score=binary))


def test_prompts_measures_a_typed_instruction_for_a_model_without_prompts(cached):
    at = app_test(PAGE, **CHECKS, ev_check="Prompts")
    assert not at.exception and not at.error
    assert at.text_input(key="ev_check_prompt").value == TRY_INSTRUCTION
    table = at.dataframe[0].value.set_index("prompts")
    assert list(table.index) == ["without prompts", f"typed: {TRY_INSTRUCTION!r}"]
    _row(table, "without prompts", _expected(cached["queries"], cached["corpus"], cached["sentences"]))
    _row(table, f"typed: {TRY_INSTRUCTION!r}",
         _expected(cached["typed queries"], cached["corpus"], cached["typed sentences"]))
    at.text_input(key="ev_check_prompt").set_value("").run()
    assert "has no prompts" in at.info[0].value


def test_a_static_model_is_distilled_in_the_queue_listed_and_compared_with_its_teacher(tiny_bert_folder):
    from core.training.finetune import delete_model
    from tests.conftest import app_test_on_model

    at = app_test_on_model(str(tiny_bert_folder), PAGE)
    at.radio(key="ev_section").set_value("Model checks").run()
    at.radio(key="ev_check").set_value("Static model").run()
    assert not at.exception and "No static model distilled" in at.info[0].value
    at.number_input(key="ev_static_pca").set_value(16).run()
    at.button(key="ev_distil").click().run()
    from core.jobs import JOBS

    assert JOBS.wait_idle(600)
    at.run()
    try:
        assert not at.exception and not at.error
        at.run()  # the comparison's vectors, embedded in the queue
        assert JOBS.wait_idle(600)
        at.run()
        table = at.dataframe[0].value.set_index("model")
        static_id = f"{tiny_bert_folder.name}-static"
        assert list(table.index) == [str(tiny_bert_folder), static_id]
        assert table.loc[static_id, "MB"] < table.loc[str(tiny_bert_folder), "MB"]
        assert (table["texts/s"] > 0).all() and table["STS-B spearman"].notna().all()
    finally:
        delete_model(f"{tiny_bert_folder.name}-static")
