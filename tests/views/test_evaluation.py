import pytest

from core.data.stsb import stsb_corpus
from core.data.stsb import load_stsb
from core.evaluation.retrieval import paraphrase_task
from tests.conftest import app_test
from tests.views.cache_fill import prefill

PAGE = "views/evaluation.py"


@pytest.fixture(scope="module", autouse=True)
def cached(minilm):
    """Fake cached embeddings for the paraphrase task and STS-B dev at every layer: no page test encodes them."""
    prefill(minilm, stsb_corpus())
    prefill(minilm, paraphrase_task("dev").queries, seed=1)
    sentences = list(dict.fromkeys(s for p in load_stsb("dev") for s in (p.sentence1, p.sentence2)))
    for layer in [None, *range(minilm.num_layers + 1)]:
        prefill(minilm, sentences, layer=layer, seed=2)


def test_opens_on_the_paraphrase_task_with_the_model_and_both_baselines():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("configuration")
    assert list(table.index) == ["all-MiniLM-L6-v2 · default · layer last", "TF-IDF", "bag of words"]
    # the baselines are real (no model involved): the numbers the CLI prints for dev
    assert table.loc["TF-IDF", "recall@1"] == pytest.approx(0.7461832061, abs=1e-9)
    assert table.loc["bag of words", "recall@10"] == pytest.approx(0.8969465649, abs=1e-9)
    assert list(table.columns) == ["recall@1", "recall@5", "recall@10", "recall@20", "recall@50", "mrr@10", "ndcg@10"]
    per_query = at.dataframe[1].value
    assert len(per_query) == 262
    assert len(at.get("plotly_chart")) == 2


def test_failures_filter_and_editable_k():
    at = app_test(PAGE)
    at.selectbox(key="ev_diag_config").set_value("TF-IDF").run()
    at.checkbox(key="ev_failures").check().run()
    failures = at.dataframe[1].value
    # 196 of 262 queries have a relevant text at rank 1 (recall@1 = 195.5 / 262: one query has two)
    assert len(failures) == 262 - 196
    assert (failures["first relevant rank"] != 1).all()
    at.text_input(key="ev_ks").set_value("2, 3").run()
    assert list(at.dataframe[0].value.columns[1:3]) == ["recall@2", "recall@3"]


def test_bad_k_values_say_what_to_type_and_keep_the_input():
    at = app_test(PAGE)
    at.text_input(key="ev_ks").set_value("0, ten").run()
    assert "whole numbers separated by commas" in at.error[0].value
    assert at.text_input(key="ev_ks").value == "0, ten"


def test_k_larger_than_a_corpus_is_explained():
    at = app_test(PAGE)
    at.text_input(key="ev_ks").set_value("1, 10000").run()
    assert any("larger than the corpus" in info.value for info in at.info)
    assert at.dataframe[0].value["recall@10000"].eq(1.0).all()


def test_sts_section_shows_correlations_genres_scatter_and_layer_sweep():
    at = app_test(PAGE)
    at.radio(key="ev_section").set_value("STS correlation").run()
    assert not at.exception and not at.error
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Pairs"] == "1,500"
    genres = at.dataframe[0].value
    assert genres["genre"].tolist()[-1] == "all"
    assert genres["pairs"].iloc[-1] == 1500 and genres["pairs"].iloc[:-1].sum() == 1500
    assert len(at.get("plotly_chart")) == 2


def test_display_only_reruns_reuse_the_scores(monkeypatch):
    at = app_test(PAGE)
    computed = []
    monkeypatch.setattr("core.evaluation.retrieval.evaluate_task", lambda *args, **kwargs: computed.append("evaluate"))
    monkeypatch.setattr("ui.models.fit_baseline", lambda *args, **kwargs: computed.append("fit"))
    at.checkbox(key="ev_failures").check().run()
    at.selectbox(key="ev_diag_config").set_value("bag of words").run()
    assert not at.exception and not computed
    assert len(at.dataframe[1].value) < 262
