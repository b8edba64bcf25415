"""Lexical baselines: TF-IDF and bag-of-words vectors (scikit-learn), unit length so a dot is the cosine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.preprocessing import normalize

Baseline = Literal["tfidf", "bow"]
BASELINES: dict[Baseline, str] = {"tfidf": "TF-IDF", "bow": "bag of words"}


@dataclass
class LexicalIndex:
    """A vectorizer fitted on a corpus and the corpus's unit-length rows."""

    vectorizer: CountVectorizer
    corpus_rows: sp.csr_matrix

    def query_rows(self, queries: Sequence[str]) -> sp.csr_matrix:
        return normalize(self.vectorizer.transform(list(queries))).tocsr().astype("float32")


def fit_baseline(kind: Baseline, corpus: Sequence[str]) -> LexicalIndex:
    """Fit the vocabulary (and IDF for TF-IDF) on the corpus."""
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
    return LexicalIndex(vectorizer, normalize(corpus_rows).tocsr().astype("float32"))



def shared_terms(index: LexicalIndex, query: str, text: str) -> pd.DataFrame:
    """The words both texts hold, with their weights in each unit-length row; the contributions (the products)
    sum to the baseline's cosine of the two texts, strongest first."""
    rows = index.query_rows([query, text])
    q, t = rows[0].toarray()[0], rows[1].toarray()[0]
    both = np.flatnonzero((q != 0) & (t != 0))
    terms = index.vectorizer.get_feature_names_out()[both]
    frame = pd.DataFrame({"word": terms, "weight in query": q[both], "weight in text": t[both],
                          "contribution": q[both] * t[both]})
    return frame.sort_values("contribution", ascending=False, kind="stable").reset_index(drop=True)
