import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.search import top_k
from core.evaluation.lexical import fit_baseline

CORPUS = ["the cat sat on the mat", "dogs chase cats", "stock markets fell sharply", "the mat was red"]


def baseline_vectors(kind, corpus, queries=()):
    index = fit_baseline(kind, corpus)
    return index.corpus_rows, index.query_rows(queries)


@pytest.mark.parametrize("kind, vectorizer", [("tfidf", TfidfVectorizer), ("bow", CountVectorizer)])
def test_scores_are_scikit_learn_cosines(kind, vectorizer):
    corpus_rows, query_rows = baseline_vectors(kind, CORPUS, ["a red mat for the cat"])
    fitted = vectorizer().fit(CORPUS)
    expected = cosine_similarity(fitted.transform(["a red mat for the cat"]), fitted.transform(CORPUS))
    np.testing.assert_allclose((query_rows @ corpus_rows.T).toarray(), expected, atol=1e-6)


def test_bag_of_words_known_cosine():
    corpus_rows, query_rows = baseline_vectors("bow", ["a cat sat", "dog"], ["cat dog"])
    # "cat sat" vs "cat dog": one shared word of two each -> 1/2; "dog" vs "cat dog" -> 1/sqrt(2)
    np.testing.assert_allclose((query_rows @ corpus_rows.T).toarray(), [[0.5, 1 / np.sqrt(2)]], atol=1e-6)


def test_tfidf_ranks_the_lexical_match_first():
    corpus_rows, query_rows = baseline_vectors("tfidf", CORPUS, ["markets fell"])
    assert top_k(query_rows, corpus_rows, 1).indices[0, 0] == 2


def test_a_corpus_without_words_is_a_clear_error():
    with pytest.raises(ValueError, match="holds no words"):
        baseline_vectors("tfidf", ["!", "?"])
    with pytest.raises(ValueError, match="Unknown baseline"):
        baseline_vectors("bm25", CORPUS)


@pytest.mark.parametrize("kind", ["tfidf", "bow"])
def test_shared_terms_sum_to_the_baselines_cosine(kind):
    from core.evaluation.lexical import shared_terms

    index = fit_baseline(kind, CORPUS)
    terms = shared_terms(index, "a red mat for the cat", CORPUS[0])
    corpus_rows, query_rows = baseline_vectors(kind, CORPUS, ["a red mat for the cat"])
    assert terms["contribution"].sum() == pytest.approx((query_rows @ corpus_rows.T).toarray()[0, 0], abs=1e-6)
    assert set(terms["word"]) == {"the", "cat", "mat"} and terms["contribution"].is_monotonic_decreasing
    assert shared_terms(index, "stock", CORPUS[0]).empty
