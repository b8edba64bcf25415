"""STS-B counts computed here from the raw files with Python's csv module, so that a test never asserts a number
copied from the project's own output. Each split's pair count is the published one (Cer et al., SemEval-2017 Task 1:
5,749 train, 1,500 dev, 1,379 test pairs)."""

from __future__ import annotations

import csv
from collections import Counter

from core.data.stsb import GENRES, stsb_folder

PUBLISHED_PAIRS = {"train": 5749, "dev": 1500, "test": 1379}
SPLITS = ("train", "dev", "test")


def raw_rows(split: str) -> list[list[str]]:
    """Rows of genre, source, year, id, score, sentence 1, sentence 2 (a few rows carry two licence columns more)."""
    with open(stsb_folder() / f"sts-{split}.csv", encoding="utf-8", newline="") as handle:
        return [row[:7] for row in csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if len(row) >= 7]


def first_sentences() -> int:
    """Distinct sentence-1 texts over all splits: the retrieval corpus."""
    return len({row[5] for split in SPLITS for row in raw_rows(split)})


def split_sentences(split: str) -> int:
    return len({text for row in raw_rows(split) for text in row[5:7]})


def paraphrase_queries(split: str) -> int:
    """Distinct sentence-2 texts of the split's pairs scored 4 or more."""
    return len({row[6] for row in raw_rows(split) if float(row[4]) >= 4.0})


def pairs_scored_4_or_more(split: str) -> int:
    return sum(float(row[4]) >= 4.0 for row in raw_rows(split))


def genre_counts() -> dict[str, int]:
    """Distinct sentences of all splits (both sides, stripped), each counted under the genre it is first seen in."""
    first_genre: dict[str, str] = {}
    for split in SPLITS:
        for row in raw_rows(split):
            for text in row[5:7]:
                first_genre.setdefault(text.strip(), GENRES.get(row[0], row[0]))
    return dict(Counter(first_genre.values()))
