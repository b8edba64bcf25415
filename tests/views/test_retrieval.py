import pandas as pd
import pytest

from core.data.stsb import stsb_corpus
from tests.conftest import CATALOG_DENSE, app_test
from tests.views.cache_fill import prefill
from tests.views.download_asked import assert_download_offered

PAGE = "views/retrieval.py"


@pytest.fixture(scope="module", autouse=True)
def builtin_cached(minilm):
    """The page opens on the 7,977-text corpus: fake its cached embeddings instead of encoding it."""
    prefill(minilm, stsb_corpus())


def other_list(at, name: str) -> pd.DataFrame:
    """Another ranker's list: only the open tab's is built, so open `name`'s tab (a rerun) and read its table."""
    at.session_state["ret_lists"] = f"{name} list"
    at.run()
    assert not at.exception
    return at.table[1].value


def _paste(at, text: str):
    at.radio(key="ret_source").set_value("Paste texts").run()
    at.text_area(key="ret_paste").set_value(text).run()
    assert not at.exception
    return at


HYBRID = "hybrid: all-MiniLM-L6-v2 + BM25"
COLUMNS = ["rank", "score", "text", "TF-IDF rank", "bag of words rank", "BM25 rank", f"{HYBRID} rank"]


def test_opens_on_the_stsb_corpus_with_model_the_baselines_and_a_hybrid_with_bm25():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    assert [tab.label for tab in at.tabs] == ["TF-IDF list", "bag of words list", "BM25 list", f"{HYBRID} list"]
    assert len(at.table) == 2  # the model's list and the open tab's (TF-IDF's): the other tabs are built when opened
    model = at.table[0].value
    tfidf, bow, bm25, hybrid = (other_list(at, name) for name in ["TF-IDF", "bag of words", "BM25", HYBRID])
    assert len(model) == len(tfidf) == len(bow) == len(bm25) == len(hybrid) == 10
    assert list(model.columns) == COLUMNS
    assert (hybrid["score"] <= 2 / 61 + 1e-12).all() and hybrid["score"].is_monotonic_decreasing  # 1/(60 + rank)
    assert tfidf["text"].iloc[0] == "A man is playing a guitar."  # the query's own words, verbatim
    first = tfidf["text"].iloc[0]  # the model's rank for TF-IDF's best text is the model list's row for it
    model_rank = tfidf["all-MiniLM-L6-v2 rank"].iloc[0]
    assert pd.isna(model_rank) or model.loc[model["rank"] == model_rank, "text"].item() == first
    assert [chart.key for chart in at.get("plotly_chart")][0] == "ret_hits"
    assert at.get("download_button")


def test_pasted_corpus_ranks_the_paraphrase_first_and_k_larger_than_the_corpus_is_explained():
    at = _paste(app_test(PAGE), "The stock market fell sharply today.\nSomeone is playing a guitar.\nA cat sleeps.")
    at.text_input(key="ret_query").set_value("A man plays the guitar.").run()
    model = at.table[0].value
    assert model["text"].tolist()[0] == "Someone is playing a guitar."
    assert model["score"].iloc[0] > 0.7
    assert any("only 3 texts" in info.value for info in at.info)


def test_score_threshold_hides_weak_hits():
    at = _paste(app_test(PAGE), "The stock market fell sharply today.\nSomeone is playing a guitar.\nA cat sleeps.")
    at.text_input(key="ret_query").set_value("A man plays the guitar.").run()
    at.slider(key="ret_threshold").set_value(0.5).run()
    assert at.table[0].value["text"].tolist() == ["Someone is playing a guitar."]


def test_empty_corpus_says_what_to_do_and_keeps_the_text_box():
    at = _paste(app_test(PAGE), "   \n\n")
    assert "corpus is empty" in at.error[0].value
    assert at.text_area(key="ret_paste").value == "   \n\n"


def test_a_corpus_of_one_text():
    at = _paste(app_test(PAGE), "Only this sentence.")
    assert any("single text" in info.value for info in at.info)
    if at.warning:  # the default threshold 0 hides an unrelated text, and says so
        assert "No hit reaches the threshold" in at.warning[0].value
    at.slider(key="ret_threshold").set_value(-1.0).run()
    assert at.table[0].value["text"].tolist() == ["Only this sentence."]


def test_an_uploaded_csv_offers_its_text_column_first():
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Upload a file").run()
    assert "Upload a .txt file" in at.info[0].value
    at.file_uploader(key="ret_upload").upload(
        "corpus.csv", b"id,text\n1,Someone is playing a guitar.\n2,The stock market fell sharply today.\n",
        "text/csv").run()
    assert not at.exception and not at.error
    assert at.selectbox(key="ret_column").options == ["text", "id"]
    assert at.table[0].value["text"].tolist()[0] == "Someone is playing a guitar."


def test_why_this_hit_explains_the_chosen_hit_with_its_score_and_the_shared_words():
    at = _paste(app_test(PAGE), "The stock market fell sharply today.\nSomeone is playing a guitar.\nA cat sleeps.")
    at.text_input(key="ret_query").set_value("A man plays the guitar.").run()
    model = at.table[0].value
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Cosine of the pair"]) == pytest.approx(model["score"].iloc[0], abs=1e-4)
    assert metrics["Sum of the token-pair contributions"] == metrics["Cosine of the pair"]
    words = at.dataframe[-1].value  # BM25's shared words by default: no stemming, so "plays" is not "playing"
    assert set(words["word"]) == {"guitar"} and words["contribution"].sum() == pytest.approx(
        other_list(at, "BM25").set_index("text").loc["Someone is playing a guitar.", "score"], abs=1e-4)
    at.selectbox(key="ret_why_baseline").set_value("tfidf").run()
    assert at.dataframe[-1].value["contribution"].sum() == pytest.approx(
        other_list(at, "TF-IDF").set_index("text").loc["Someone is playing a guitar.", "score"], abs=1e-4)
    why = next(box for box in at.main.selectbox if box.label == "Hit")
    why.set_value(2).run()
    assert float({m.label: m.value for m in at.metric}["Cosine of the pair"]) == pytest.approx(
        at.table[0].value["score"].iloc[1], abs=1e-4)


def test_an_uploaded_txt_file_asks_for_no_column():
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Upload a file").run()
    at.file_uploader(key="ret_upload").upload("corpus.txt", b"A man plays the guitar.\nThe stock market fell.\n",
                                              "text/plain").run()
    assert not at.exception and not [box for box in at.main.selectbox if box.label == "Text column"]
    assert at.table[0].value["text"].tolist()[0] == "A man plays the guitar."


@pytest.mark.slow  # embeds the 7,977 STS-B sentences once, with max pooling at layer 5
def test_a_corpus_not_embedded_yet_answers_with_the_baselines_at_once_then_the_model_joins():
    from core.jobs import JOBS

    # A configuration no other test embeds: the run's disk cache is shared by every test, browser tests included.
    at = app_test(PAGE, settle=False, pooling="max", layer="5")
    assert not at.exception
    assert "The lexical baselines answer at once" in " ".join(c.value for c in at.caption)
    assert at.table[0].value["text"].iloc[0] == "A man is playing a guitar."  # TF-IDF's list, shown at once
    assert "TF-IDF's list with the rank each other ranker gave" in " ".join(c.value for c in at.caption)
    assert JOBS.unfinished() and JOBS.wait_idle(600)
    at.run()
    assert list(at.table[0].value.columns) == COLUMNS


def test_a_hybrid_partner_from_the_hub_the_cache_lacks_downloads_only_when_asked_and_the_lists_stay(hub_uncached):
    at = _paste(app_test(PAGE, ret_hybrid=CATALOG_DENSE), "A man is playing a guitar.\nThe stock market fell.\n"
                                                         "A woman slices an onion.")
    assert not at.exception and not at.error
    assert at.selectbox(key="ret_hybrid").value == CATALOG_DENSE
    assert_download_offered(at, CATALOG_DENSE, "ret_hybrid", hub_uncached)
    assert f"The hybrid with {CATALOG_DENSE} joins the lists once it is here." in [c.value for c in at.caption]
    assert [tab.label for tab in at.tabs] == ["TF-IDF list", "bag of words list", "BM25 list"]  # no hybrid yet
    assert at.table[0].value["text"].iloc[0] == "A man is playing a guitar."  # the model's list, drawn
