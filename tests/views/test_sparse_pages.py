"""Every page on a sparse model, in AppTest: the sidebar says what it is, the Model page reads its terms, Similarity
draws its own similarity and splits a cell into terms, Retrieval searches sparse with BM25 and a hybrid beside it,
Evaluation scores it (and says what does not apply), the map reduces it by TruncatedSVD, Layers shows its terms by
layer; a reranker chosen as the model is said in one sentence. Numbers are checked against sentence-transformers'
SparseEncoder on the same folder and against independent computations."""

import numpy as np
import pytest
from scipy.stats import spearmanr
from sentence_transformers import SparseEncoder

from core.data.stsb import MAP_SAMPLE_SIZE, load_stsb, stsb_corpus, stsb_sample, stsb_sentences
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import paraphrase_task
from core.models.packages import splade_folder
from tests.canvases import canvas
from tests.conftest import app_test, app_test_on_model
from tests.figures import figure
from tests.references import information_retrieval
from tests.views.cache_fill import prefill_sparse

TEXTS = "The bank by the river was flooded.\nShe deposited her salary at the bank.\nA man plays the guitar."


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers.sparse_encoder.modules import MLMTransformer, SpladePooling

    return SparseEncoder(modules=[MLMTransformer(str(splade_folder())), SpladePooling("max")], device="cpu")


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_the_sidebar_says_a_sparse_model_is_sparse_and_offers_no_pooling_layer_or_dimensions():
    at = app_test("views/home.py", model="splade-tiny")
    assert not at.exception and not at.sidebar.error
    keys = {widget.key for widget in at.sidebar.selectbox} | {widget.key for widget in at.sidebar.slider} | {
        widget.key for widget in at.sidebar.number_input}
    assert "sb_pooling" not in keys and "sb_layer" not in keys and "sb_dims" not in keys and "sb_maxlen" in keys
    assert any("Sparse model: each text becomes 30,522 weights" in c.value for c in at.sidebar.caption)
    facts = at.table[0].value
    assert facts.loc["similarity", "value"] == "dot" and "30,522" in facts.loc["vector", "value"]


def test_a_reranker_chosen_as_the_model_is_said_to_score_pairs(reranker_folder):
    at = app_test("views/similarity.py")
    at.sidebar.text_input(key="sb_custom").set_value(str(reranker_folder)).run()
    assert not at.exception
    assert "is a reranker (a CrossEncoder): it scores a query and a text read together" in at.sidebar.error[0].value
    assert "Still showing all-MiniLM-L6-v2" in at.sidebar.error[0].value
    assert at.sidebar.text_input(key="sb_custom").value == str(reranker_folder)  # what was typed stays


def test_the_terms_view_shows_a_texts_terms_and_its_expansion(reference):
    at = app_test("views/model.py", model="splade-tiny")
    assert not at.exception and not at.error
    vector = reference.encode_document(TEXTS.splitlines()[0])
    shown = metrics(at)
    assert int(shown["Active terms"]) == int(reference.sparsity(vector)["active_dims"])
    terms = figure(at, "model_terms_document_chart")
    weights = {term: weight for trace in terms.data for term, weight in zip(trace.y, trace.x)}
    assert weights == pytest.approx(dict(reference.decode(vector, top_k=30)), abs=1e-5)
    assert {trace.name for trace in terms.data} == {"in the text", "added by the model"}
    assert "flood" in [term for trace in terms.data if trace.name == "added by the model" for term in trace.y]


def test_queries_and_documents_are_shown_apart_where_the_model_routes_them(sparse_folders):
    at = app_test_on_model(str(sparse_folders["inference-free"]), "views/model.py")
    assert [h.value for h in at.subheader][:2] == ["As a query", "As a document"]
    query = figure(at, "model_terms_query_chart")
    assert {trace.name for trace in query.data} == {"in the text"}  # a query's terms are its own tokens


def test_similarity_is_the_models_dot_product_and_a_cell_splits_into_shared_terms(reference):
    at = app_test("views/similarity.py", model="splade-tiny", sim_texts=TEXTS)
    assert not at.exception and not at.error
    vectors = reference.encode(TEXTS.splitlines())
    expected = reference.similarity(vectors, vectors).numpy()
    z = np.asarray(figure(at, "sim_heatmap").data[0].z, dtype=float)
    np.testing.assert_allclose(np.sort(z.ravel()), np.sort(expected.ravel()), rtol=1e-5)
    shown = metrics(at)
    assert float(shown["Score (dot)"]) == float(shown["Sum of the shared terms' contributions"])
    assert float(shown["Score (dot)"]) == pytest.approx(expected[0, 1], abs=1e-3)  # the closest pair: 1 and 2
    assert "sim_compare" not in {toggle.key for toggle in at.toggle}


def test_retrieval_ranks_by_the_sparse_score_with_bm25_and_a_hybrid_beside(reference):
    corpus = ["Someone is playing a guitar.", "The stock market fell sharply today.", "A cat sleeps on the rug."]
    at = app_test("views/retrieval.py", model="splade-tiny", ret_source="Paste texts", ret_paste="\n".join(corpus),
                  ret_query="A man plays the guitar.")
    assert not at.exception and not at.error
    listed = at.table[0].value
    expected = reference.similarity(reference.encode_query(["A man plays the guitar."]),
                                    reference.encode_document(corpus)).numpy()[0]
    assert listed["text"].iloc[0] == corpus[int(np.argmax(expected))]
    assert listed["score"].tolist() == pytest.approx(sorted(expected[expected > 0], reverse=True), abs=1e-3)
    tabs = [tab.label for tab in at.tabs]
    assert "BM25 list" in tabs and "hybrid: splade-tiny + all-MiniLM-L6-v2 list" in tabs
    shown = metrics(at)
    assert float(shown["Score (dot)"]) == pytest.approx(listed["score"].iloc[0], abs=1e-3)


def test_evaluation_scores_a_sparse_model_equal_to_the_evaluator_and_says_what_does_not_apply(splade):
    task = paraphrase_task("dev")
    corpus = prefill_sparse(splade, stsb_corpus(), seed=60)
    queries = prefill_sparse(splade, task.queries, role="query", seed=61)
    at = app_test("views/evaluation.py", model="splade-tiny")
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("configuration")
    reference = {shown_name(k): v for k, v in information_retrieval(task, queries, corpus, (1, 5, 10, 20, 50)).items()}
    assert table.loc["splade-tiny"].to_dict() == pytest.approx({c: reference[c] for c in table.columns}, abs=1e-6)
    assert "hybrid: splade-tiny + BM25" in table.index
    at.radio(key="ev_section").set_value("Model checks").run()
    assert "is sparse" in at.info[0].value


def test_sts_on_a_sparse_model_correlates_its_dot_products(splade):
    sentences = stsb_sentences("dev")
    rows = prefill_sparse(splade, sentences, role="text", seed=62)
    at = app_test("views/evaluation.py", model="splade-tiny", ev_section="STS correlation")
    assert not at.exception and not at.error
    pairs, row = load_stsb("dev"), {s: i for i, s in enumerate(sentences)}
    dots = [float(rows[row[p.sentence1]].multiply(rows[row[p.sentence2]]).sum()) for p in pairs]
    expected = spearmanr([p.score for p in pairs], dots).statistic
    assert float(metrics(at)["Spearman"]) == pytest.approx(expected, abs=1e-4)
    assert any("layer sweep" in box.value for box in at.info)


def test_the_map_reduces_a_sparse_corpus_by_truncated_svd(splade):
    texts = stsb_sample(MAP_SAMPLE_SIZE)["text"].tolist()
    prefill_sparse(splade, texts, seed=63)
    at = app_test("views/map.py", model="splade-tiny")
    assert not at.exception and not at.error
    assert any("reduced to 128 by TruncatedSVD" in c.value for c in at.caption)
    assert len(canvas(at).positions) == MAP_SAMPLE_SIZE


def test_layers_show_the_terms_each_layer_would_activate(splade):
    from core.encoding.sparse import encode_sparse
    from core.lessons.lessons import BANK

    at = app_test("views/layers.py", model="splade-tiny", layers_texts="\n".join(BANK), layers_tab="Terms by layer")
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table["layer"].tolist() == [0, 1, 2]
    assert table["active terms"].iloc[-1] == encode_sparse(splade, [BANK[0]]).matrix.nnz
