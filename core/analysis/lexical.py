"""Lexical baselines: TF-IDF and bag-of-words vectors (scikit-learn), unit length so a dot is the cosine, and BM25
(the bm25s library, the baseline every retrieval paper reports), whose corpus rows hold each word's BM25 weight in
each text so that a query's row of word counts dotted with them is bm25s's score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.preprocessing import normalize

from core.analysis.baselines import BASELINES, Baseline

NO_WORDS = "The corpus holds no words for a lexical baseline; add texts with words."


class Lexical(Protocol):
    """A baseline fitted on a corpus: its rows, one per text, and a query's row in the same space."""

    baseline: Baseline
    corpus_rows: sp.csr_matrix

    @property
    def score(self) -> str: ...

    def query_rows(self, queries: Sequence[str]) -> sp.csr_matrix: ...

    def terms(self) -> np.ndarray: ...


@dataclass
class LexicalIndex:
    """A scikit-learn vectorizer fitted on a corpus and the corpus's unit-length rows: scores are cosines."""

    baseline: Baseline
    vectorizer: CountVectorizer
    corpus_rows: sp.csr_matrix

    score = "cosine"

    def query_rows(self, queries: Sequence[str]) -> sp.csr_matrix:
        return normalize(self.vectorizer.transform(list(queries))).tocsr().astype("float32")

    @cached_property
    def _terms(self) -> np.ndarray:  # built once: "why this hit?" reads a few of them on every query
        return self.vectorizer.get_feature_names_out()

    def terms(self) -> np.ndarray:
        return self._terms


@dataclass
class BM25Index:
    """bm25s (Lucene's BM25, k1 1.5, b 0.75) over the corpus, English stop words left out, no stemming: each
    corpus row holds its words' BM25 weights, a query row its words' counts (bm25s adds a word's weight once for
    each time the query holds it)."""

    baseline: Baseline
    tokenizer: Any  # bm25s.tokenization.Tokenizer, its vocabulary fitted on the corpus
    corpus_rows: sp.csr_matrix

    score = "bm25"

    def query_rows(self, queries: Sequence[str]) -> sp.csr_matrix:
        ids = self.tokenizer.tokenize(list(queries), update_vocab=False, return_as="ids", show_progress=False)
        empty = self.tokenizer.get_vocab_dict().get("")  # bm25s's word for "stop words only": no word to match
        ids = [[token for token in row if token != empty] for row in ids]
        rows = np.repeat(np.arange(len(ids)), [len(row) for row in ids])
        flat = np.fromiter((token for row in ids for token in row), np.int64, count=len(rows))
        counts = sp.csr_matrix((np.ones(len(flat), np.float32), (rows, flat)),
                               shape=(len(ids), self.corpus_rows.shape[1]))
        counts.sum_duplicates()
        return counts

    @cached_property
    def _terms(self) -> np.ndarray:
        vocabulary = self.tokenizer.get_vocab_dict()
        names = np.empty(self.corpus_rows.shape[1], dtype=object)
        for word, column in vocabulary.items():
            names[column] = word
        return names

    def terms(self) -> np.ndarray:
        return self._terms


def _fit_bm25(corpus: Sequence[str]) -> BM25Index:
    import bm25s
    from bm25s.tokenization import Tokenizer

    tokenizer = Tokenizer(stopwords="en")
    ids = tokenizer.tokenize(list(corpus), return_as="ids", show_progress=False)
    if not any(tokenizer.get_vocab_dict()):  # a text of stop words alone holds bm25s's empty word "" only
        raise ValueError(NO_WORDS)
    retriever = bm25s.BM25()
    retriever.index(ids, show_progress=False)
    # bm25s keeps one column of weights per word (CSC, words × texts); its word ids are the tokenizer's
    scores = retriever.scores
    width = len(tokenizer.get_vocab_dict())
    by_word = sp.csc_matrix((scores["data"], scores["indices"], scores["indptr"]),
                            shape=(scores["num_docs"], len(scores["indptr"]) - 1))
    if by_word.shape[1] < width:
        by_word = sp.hstack([by_word, sp.csc_matrix((by_word.shape[0], width - by_word.shape[1]))])
    return BM25Index("bm25", tokenizer, by_word.tocsr().astype(np.float32))


def fit_baseline(baseline: Baseline, corpus: Sequence[str]) -> Lexical:
    """Fit the vocabulary (and IDF for TF-IDF, the BM25 weights for BM25) on the corpus."""
    if baseline == "bm25":
        return _fit_bm25(corpus)
    if baseline == "tfidf":
        vectorizer = TfidfVectorizer()
    elif baseline == "bow":
        vectorizer = CountVectorizer()
    else:
        raise ValueError(f"Unknown baseline {baseline!r}; choose one of {', '.join(BASELINES)}.")
    try:
        corpus_rows = vectorizer.fit_transform(list(corpus))
    except ValueError as err:  # "empty vocabulary": no text holds a word of two letters or more
        raise ValueError(NO_WORDS) from err
    return LexicalIndex(baseline, vectorizer, normalize(corpus_rows).tocsr().astype("float32"))


def shared_terms(index: Lexical, query: str, row: int) -> pd.DataFrame:
    """The words the query and corpus text `row` both hold, with their weights in each; the contributions (the
    products) sum to the baseline's score of the pair (a cosine, or BM25's score), strongest first."""
    q = index.query_rows([query])[0].toarray()[0]
    t = index.corpus_rows[row].toarray()[0]
    both = np.flatnonzero((q != 0) & (t != 0))
    frame = pd.DataFrame({"word": index.terms()[both], "weight in query": q[both], "weight in text": t[both],
                          "contribution": q[both] * t[both]})
    return frame.sort_values("contribution", ascending=False, kind="stable").reset_index(drop=True)
