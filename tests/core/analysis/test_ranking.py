import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.lexical import fit_baseline
from core.analysis.ranking import Ranker, rank_query

CORPUS = ["a cat sat on the mat", "dogs chase cats in the park", "the stock market fell today",
          "a kitten sleeps on a rug", "interest rates rose again", "the cat and the dog play"]


@pytest.fixture
def ranking():
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((len(CORPUS), 8))
    query_vector = vectors[3:4] + 0.1 * rng.standard_normal((1, 8))
    rankers = {"model": Ranker.dense(query_vector, vectors),
               "TF-IDF": Ranker.of_index(fit_baseline("tfidf", CORPUS), "cat"),
               "bag of words": Ranker.of_index(fit_baseline("bow", CORPUS), "cat")}
    return rank_query(CORPUS, rankers, k=4, primary="model"), vectors, query_vector


def test_each_list_is_the_k_best_by_cosine_in_its_own_space(ranking):
    result, vectors, query_vector = ranking
    scores = cosine_similarity(query_vector, vectors)[0]
    model = result.ranked("model")
    assert model["index"].tolist() == np.argsort(-scores, kind="stable")[:4].tolist()
    np.testing.assert_allclose(model["score"], np.sort(scores)[::-1][:4], atol=1e-6)
    assert model["text"].tolist() == [CORPUS[i] for i in model["index"]]
    tfidf = TfidfVectorizer().fit(CORPUS)
    reference = cosine_similarity(tfidf.transform(["cat"]), tfidf.transform(CORPUS))[0]
    np.testing.assert_allclose(result.ranked("TF-IDF")["score"], np.sort(reference)[::-1][:4], atol=1e-6)


def test_a_lexical_score_of_zero_is_listed_but_no_hit(ranking):
    result, _, _ = ranking
    tfidf = result.ranked("TF-IDF")
    assert (tfidf["hit"] == (tfidf["score"] > 0)).all() and not tfidf["hit"].all()
    assert result.ranked("model")["hit"].all()
    zero = tfidf.loc[~tfidf["hit"], "index"].tolist()
    assert not set(zero) & set(result.rank_under("TF-IDF"))


def test_side_by_side_gives_the_rank_each_other_ranker_found_the_text_at(ranking):
    result, _, _ = ranking
    side = result.side_by_side()
    assert list(side.columns) == ["rank", "index", "score", "hit", "text", "TF-IDF rank", "bag of words rank"]
    tfidf = result.ranked("TF-IDF")
    for index, rank in zip(side["index"], side["TF-IDF rank"]):
        expected = tfidf.loc[(tfidf["index"] == index) & tfidf["hit"], "rank"]
        assert (pd.isna(rank) and expected.empty) or rank == expected.item()
    assert result.shared()["TF-IDF"] == int(side["TF-IDF rank"].notna().sum())


def test_a_query_sharing_no_word_finds_nothing_lexically():
    rankers = {"model": Ranker.dense(np.ones((1, 2)), np.eye(2)),
               "TF-IDF": Ranker.of_index(fit_baseline("tfidf", ["alpha beta", "gamma delta"]), "zeta")}
    result = rank_query(["alpha beta", "gamma delta"], rankers, k=5, primary="model")
    assert result.k == 2 and result.no_word_shared("TF-IDF") and not result.no_word_shared("model")


def test_the_primary_ranker_must_be_given():
    with pytest.raises(ValueError, match="primary ranker"):
        rank_query(["a"], {"model": Ranker.dense(np.ones((1, 2)), np.ones((1, 2)))}, k=1, primary="other")
