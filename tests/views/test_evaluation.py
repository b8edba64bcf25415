import pytest

from core.analysis.lexical import fit_baseline
from core.data.stsb import load_stsb, stsb_corpus, stsb_sentences
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import paraphrase_task
from tests.conftest import CATALOG_DENSE, app_test
from tests.references import embedding_similarity, information_retrieval
from tests.views.cache_fill import prefill
from tests.views.download_asked import assert_download_offered

PAGE = "views/evaluation.py"


@pytest.fixture(scope="module", autouse=True)
def cached(minilm):
    """Fake cached embeddings for the paraphrase task and STS-B dev at every layer: no page test encodes them."""
    for layer in [None, *range(minilm.num_layers + 1)]:
        prefill(minilm, stsb_sentences("dev"), layer=layer, seed=2)
    return prefill(minilm, paraphrase_task("dev").queries, seed=1), prefill(minilm, stsb_corpus())


def _reference(baseline_or_vectors, ks=(1, 5, 10, 20, 50)) -> dict[str, float]:
    """InformationRetrievalEvaluator on the dev task, as the page's table names the metrics."""
    task = paraphrase_task("dev")
    if isinstance(baseline_or_vectors, str):
        index = fit_baseline(baseline_or_vectors, task.corpus)
        queries, corpus = index.query_rows(task.queries), index.corpus_rows
    else:
        queries, corpus = baseline_or_vectors
    return {shown_name(key): value for key, value in information_retrieval(task, queries, corpus, ks).items()}


MODEL_ROW = "all-MiniLM-L6-v2 · default · layer last"


def test_opens_on_the_paraphrase_task_with_the_model_the_baselines_and_a_hybrid(cached):
    at = app_test(PAGE)
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("configuration")
    assert list(table.index) == [MODEL_ROW, "TF-IDF", "bag of words", "BM25", f"hybrid: {MODEL_ROW} + BM25"]
    assert list(table.columns) == ["recall@1", "recall@5", "recall@10", "recall@20", "recall@50", "mrr@10", "ndcg@10"]
    for row, reference in ((MODEL_ROW, _reference(cached)), ("TF-IDF", _reference("tfidf")),
                           ("bag of words", _reference("bow")), ("BM25", _reference("bm25"))):
        assert table.loc[row].to_dict() == pytest.approx({c: reference[c] for c in table.columns}, abs=1e-6), row
    from core.evaluation.retrieval import Scored, evaluate_fused

    task = paraphrase_task("dev")
    index = fit_baseline("bm25", task.corpus)
    fused = evaluate_fused(task, Scored(*cached, "cosine", False),
                           Scored(index.query_rows(task.queries), index.corpus_rows, "bm25", True))
    assert table.loc[f"hybrid: {MODEL_ROW} + BM25"].to_dict() == pytest.approx(
        {shown_name(k): v for k, v in fused.metrics.items()}, abs=1e-9)
    assert len(at.dataframe[1].value) == len(paraphrase_task("dev").queries)
    assert len(at.get("plotly_chart")) == 2


def test_failures_filter_and_editable_k():
    at = app_test(PAGE)
    at.selectbox(key="ev_diag_config").set_value("TF-IDF").run()
    at.checkbox(key="ev_failures").check().run()
    failures = at.dataframe[1].value
    queries = len(paraphrase_task("dev").queries)
    assert len(failures) == queries - round(_reference("tfidf")["accuracy@1"] * queries)
    assert (failures["first relevant rank"] != 1).all()
    at.text_input(key="ev_ks").set_value("2, 3").run()
    assert list(at.dataframe[0].value.columns[1:3]) == ["recall@2", "recall@3"]
    assert at.selectbox(key="ev_diag_config").value == "TF-IDF"  # the user's choice outlives the rerun


def test_bad_k_values_say_what_to_type_and_keep_the_input():
    at = app_test(PAGE)
    at.text_input(key="ev_ks").set_value("0, ten").run()
    assert "whole numbers separated by commas" in at.error[0].value
    assert at.text_input(key="ev_ks").value == "0, ten"


def test_k_larger_than_a_corpus_is_explained():
    at = app_test(PAGE)
    at.text_input(key="ev_ks").set_value("1, 10000").run()
    assert any("larger than the corpus" in info.value for info in at.info)
    table = at.dataframe[0].value.set_index("configuration")
    assert table["recall@10000"].drop(index=f"hybrid: {MODEL_ROW} + BM25").eq(1.0).all()
    assert table.loc[f"hybrid: {MODEL_ROW} + BM25", "recall@10000"] < 1  # it fuses each list's top 100 only


def test_sts_section_equals_the_evaluator_and_shows_genres_scatter_and_layer_sweep(minilm):
    at = app_test(PAGE)
    at.radio(key="ev_section").set_value("STS correlation").run()
    assert not at.exception and not at.error
    pairs, sentences = load_stsb("dev"), stsb_sentences("dev")
    vectors = prefill(minilm, sentences, seed=2)  # the vectors the fixture stored
    row = {s: i for i, s in enumerate(sentences)}
    reference = embedding_similarity(vectors[[row[p.sentence1] for p in pairs]],
                                     vectors[[row[p.sentence2] for p in pairs]], [p.score for p in pairs])
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Spearman"]) == pytest.approx(reference["spearman_cosine"], abs=1e-4)
    assert float(metrics["Pearson"]) == pytest.approx(reference["pearson_cosine"], abs=1e-4)
    assert metrics["Pairs"] == f"{len(pairs):,}"
    genres = at.dataframe[0].value
    assert genres["genre"].tolist()[-1] == "all"
    assert genres["pairs"].iloc[-1] == len(pairs) and genres["pairs"].iloc[:-1].sum() == len(pairs)
    assert genres["spearman"].iloc[-1] == pytest.approx(reference["spearman_cosine"], abs=1e-6)
    assert len(at.get("plotly_chart")) == 2


def test_display_only_reruns_reuse_the_scores(monkeypatch):
    at = app_test(PAGE)
    computed = []
    monkeypatch.setattr("core.evaluation.retrieval.evaluate_task", lambda *args, **kwargs: computed.append("evaluate"))
    monkeypatch.setattr("ui.work.cache.fit_baseline", lambda *args, **kwargs: computed.append("fit"))
    at.checkbox(key="ev_failures").check().run()
    at.selectbox(key="ev_diag_config").set_value("bag of words").run()
    assert not at.exception and not computed
    assert len(at.dataframe[1].value) < len(paraphrase_task("dev").queries)


@pytest.mark.slow  # embeds the 7,977-text corpus with CLS pooling at layer 5 in the background
def test_a_configuration_not_embedded_yet_leaves_the_baselines_on_show_while_it_embeds():
    from core.jobs import JOBS

    # A configuration no other test embeds: the run's disk cache is shared by every test, browser tests included.
    at = app_test(PAGE, settle=False, pooling="cls", ev_layers="[5]")
    assert not at.exception and JOBS.unfinished()
    assert list(at.dataframe[0].value["configuration"]) == ["TF-IDF", "bag of words", "BM25"]
    assert at.get("progress") or at.info  # the embedding's progress, or its place in the queue
    assert JOBS.wait_idle(900)
    at.run()
    assert list(at.dataframe[0].value["configuration"]) == ["all-MiniLM-L6-v2 · cls · layer 5", "TF-IDF",
                                                              "bag of words", "BM25",
                                                              "hybrid: all-MiniLM-L6-v2 · cls · layer 5 + BM25"]
    # The diagnostics showed the first baseline meanwhile; nobody chose it, so they move to the model's row.
    assert at.selectbox(key="ev_diag_config").value == "all-MiniLM-L6-v2 · cls · layer 5"


def test_a_configuration_from_the_hub_the_cache_lacks_is_skipped_until_it_is_downloaded(hub_uncached):
    from ui.state.url_codec import encode

    at = app_test(PAGE, ev_models=encode(["all-MiniLM-L6-v2", CATALOG_DENSE]))
    assert not at.exception and not at.error
    assert at.multiselect(key="ev_models").value == ["all-MiniLM-L6-v2", CATALOG_DENSE]
    assert_download_offered(at, CATALOG_DENSE, f"ev_models_{CATALOG_DENSE}", hub_uncached)
    assert f"{CATALOG_DENSE}'s configurations join the others once it is here." in [c.value for c in at.caption]
    assert list(at.dataframe[0].value["configuration"]) == [MODEL_ROW, "TF-IDF", "bag of words", "BM25",
                                                              f"hybrid: {MODEL_ROW} + BM25"]
