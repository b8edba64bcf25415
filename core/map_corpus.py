"""The map's corpora: a seeded STS-B sample that keeps each sentence's genre, and labels kept beside texts."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from core.corpus import corpus_texts
from core.data import SPLITS, load_stsb
from core.projection import sample_indices

GENRES = {"main-news": "news", "main-captions": "captions", "main-forum": "forums", "main-forums": "forums"}


def stsb_genres() -> pd.DataFrame:
    """Every distinct STS-B sentence (both sides of all splits, first seen first) with its genre."""
    seen: dict[str, str] = {}
    for split in SPLITS:
        for pair in load_stsb(split):
            for sentence in (pair.sentence1, pair.sentence2):
                seen.setdefault(sentence.strip(), GENRES.get(pair.genre, pair.genre))
    return pd.DataFrame({"text": list(seen), "genre": list(seen.values())})


def stsb_sample(size: int, *, seed: int = 0) -> pd.DataFrame:
    """A seeded random sample of `size` STS-B sentences with their genre, in corpus order."""
    frame = stsb_genres()
    return frame.iloc[sample_indices(len(frame), limit=size, seed=seed)].reset_index(drop=True)


def labelled_corpus(texts: Sequence[str], labels: Sequence[str] | None = None) -> pd.DataFrame:
    """Texts cleaned as every corpus is (core.corpus.corpus_texts: trimmed, blanks and repeats dropped,
    limits checked), each with the label of its first occurrence when labels are given."""
    kept = corpus_texts(list(texts))
    frame = pd.DataFrame({"text": kept})
    if labels is not None:
        first: dict[str, str] = {}
        for text, label in zip(texts, labels):
            first.setdefault(text.strip(), str(label))
        frame["label"] = [first[text] for text in kept]
    return frame
