import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from core.analysis.map.clusters import cluster_keywords, matching, selection_keywords, spherize

TEXTS = ["the cat sleeps on the sofa", "a cat chases a mouse", "my cat purrs",
         "stocks fell sharply", "the market and stocks rose", "interest rates and stocks"]
LABELS = [0, 0, 0, 1, 1, 1]


def test_keywords_are_each_clusters_top_class_based_tfidf_words():
    table = cluster_keywords(TEXTS, LABELS, top=2)
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True)
    weights = vectorizer.fit_transform([" ".join(TEXTS[:3]), " ".join(TEXTS[3:])]).toarray()
    words = vectorizer.get_feature_names_out()
    assert table.set_index("cluster").loc["0", "keywords"].split(", ")[0] == words[np.argmax(weights[0])] == "cat"
    assert table.set_index("cluster").loc["1", "keywords"].split(", ")[0] == "stocks"
    assert table["size"].tolist() == [3, 3] and table.loc[0, "examples"].count(" | ") == 2


def test_a_selections_keywords_are_its_words_weighed_against_the_other_texts():
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True)
    weights = vectorizer.fit_transform([" ".join(TEXTS[:3] + TEXTS[4:]), TEXTS[3]]).toarray()[1]
    words = vectorizer.get_feature_names_out()
    expected = [words[i] for i in np.argsort(-weights, kind="stable") if weights[i] > 0]
    assert selection_keywords(TEXTS, [3]).split(", ") == expected[:8]
    assert selection_keywords(TEXTS, [0, 1, 2]).split(", ")[0] == "cat"


def test_clusters_without_words_still_get_a_row():
    assert cluster_keywords(["!", "?"], ["a", "b"])["keywords"].tolist() == ["", ""]


def test_matching_a_word_or_a_regular_expression():
    assert matching(TEXTS, "CAT").tolist() == [True, True, True, False, False, False]
    assert matching(TEXTS, r"stocks? (fell|rose)", regex=True).tolist() == [False] * 3 + [True, True, False]
    assert matching(TEXTS, "a.c").sum() == 0  # plain text: the dot is a dot
    assert not matching(TEXTS, "").any()
    with pytest.raises(ValueError, match="not a regular expression"):
        matching(TEXTS, "(unclosed", regex=True)


def test_spherize_centres_and_scales_to_unit_length():
    vectors = np.random.default_rng(0).standard_normal((20, 5)) + 10
    out = spherize(vectors)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0)
    centred = vectors - vectors.mean(axis=0)
    np.testing.assert_allclose(out * np.linalg.norm(centred, axis=1, keepdims=True), centred, atol=1e-12)
