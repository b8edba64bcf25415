"""Lexical baselines: TF-IDF and bag-of-words vectors (scikit-learn), unit length so a dot is the cosine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.preprocessing import normalize

Baseline = Literal["tfidf", "bow"]
BASELINES: dict[Baseline, str] = {"tfidf": "TF-IDF", "bow": "bag of words"}


def baseline_vectors(kind: Baseline, corpus: Sequence[str], queries: Sequence[str] = ()) \
        -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Fit the vocabulary (and IDF) on the corpus; return unit-length sparse rows for corpus and queries."""
    if kind == "tfidf":
        vectorizer = TfidfVectorizer()
    elif kind == "bow":
        vectorizer = CountVectorizer()
    else:
        raise ValueError(f"Unknown baseline {kind!r}; choose one of {', '.join(BASELINES)}.")
    try:
        corpus_rows = vectorizer.fit_transform(list(corpus))
    except ValueError as err:  # "empty vocabulary": no text holds a word of two letters or more
        raise ValueError("The corpus holds no words for a lexical baseline; add texts with words.") from err
    query_rows = vectorizer.transform(list(queries))
    return normalize(corpus_rows).tocsr().astype("float32"), normalize(query_rows).tocsr().astype("float32")
