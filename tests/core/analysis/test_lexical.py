import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

from core.analysis.lexical import fit_baseline
from core.analysis.search import top_k

CORPUS = ["the cat sat on the mat", "dogs chase cats", "stock markets fell sharply", "the mat was red"]


def baseline_vectors(baseline, corpus, queries=()):
    index = fit_baseline(baseline, corpus)
    return index.corpus_rows, index.query_rows(queries)


@pytest.mark.parametrize("baseline, vectorizer", [("tfidf", TfidfVectorizer), ("bow", CountVectorizer)])
def test_scores_are_scikit_learn_cosines(baseline, vectorizer):
    corpus_rows, query_rows = baseline_vectors(baseline, CORPUS, ["a red mat for the cat"])
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
    with pytest.raises(ValueError, match="holds no words"):
        baseline_vectors("bm25", ["the", "a of"])  # stop words only
    with pytest.raises(ValueError, match="Unknown baseline"):
        baseline_vectors("bm42", CORPUS)


@pytest.mark.parametrize("baseline, words", [("tfidf", {"the", "cat", "mat"}), ("bow", {"the", "cat", "mat"}),
                                             ("bm25", {"cat", "mat"})])  # BM25 leaves English stop words out
def test_shared_terms_sum_to_the_baselines_score(baseline, words):
    from core.analysis.lexical import shared_terms

    index = fit_baseline(baseline, CORPUS)
    terms = shared_terms(index, "a red mat for the cat cat", 0)
    corpus_rows, query_rows = baseline_vectors(baseline, CORPUS, ["a red mat for the cat cat"])
    assert terms["contribution"].sum() == pytest.approx((query_rows @ corpus_rows.T).toarray()[0, 0], abs=1e-5)
    assert set(terms["word"]) == words and terms["contribution"].is_monotonic_decreasing
    assert shared_terms(index, "stock", 0).empty


def test_bm25_scores_are_bm25s_scores_for_every_text_and_its_ranking():
    import bm25s
    from bm25s.tokenization import Tokenizer

    from core.data.stsb import stsb_corpus

    corpus = list(stsb_corpus()[:2000])
    queries = ["A man is playing a guitar guitar.", "stocks fell", "zzzz nothing known"]
    index = fit_baseline("bm25", corpus)
    tokenizer = Tokenizer(stopwords="en")
    reference = bm25s.BM25()
    reference.index(tokenizer.tokenize(corpus, return_as="ids", show_progress=False), show_progress=False)
    ids = tokenizer.tokenize(queries, update_vocab=False, return_as="ids", show_progress=False)
    ours = (index.query_rows(queries) @ index.corpus_rows.T).toarray()
    for q, query_ids in enumerate(ids):
        expected = reference.get_scores(query_ids) if query_ids else np.zeros(len(corpus))
        np.testing.assert_allclose(ours[q], expected, rtol=1e-5, atol=1e-5)
    found = top_k(index.query_rows(queries[:1]), index.corpus_rows, 10)
    expected_top = np.sort(reference.get_scores(ids[0]))[::-1][:10]
    np.testing.assert_allclose(found.scores[0], expected_top, rtol=1e-5)
