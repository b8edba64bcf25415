"""Sentence pairs to train on: STS-B train (scored or positives only) or the user's uploaded table.

Scores are similarities in [0, 1]; a file scored 0–5 (the STS-B convention) is scaled by 1/5.
Every failure is a `PairsError` whose message is one sentence with the way forward.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from core.data.corpus import CorpusError, NoTexts
from core.data.objectives import OBJECTIVES, Objective
from core.data.stsb import load_stsb
from core.data.uploads import check_size, decode_text, parse_table

PAIR_FILE_TYPES = ("csv", "jsonl")  # a pairs file is a table: two text columns and an optional score
OBJECTIVE_NAMES = {"cosine": "cosine-similarity regression (CosineSimilarityLoss)",
                   "mnrl": "multiple-negatives ranking (MultipleNegativesRankingLoss)",
                   "reranker": "a cross-encoder reranker: each pair read together, its score as the label "
                               "(BinaryCrossEntropyLoss)",
                   "multi-vector": "late interaction, a vector per token, ranked by MaxSim "
                                   "(MultiVectorMultipleNegativesRankingLoss)"}
SCORED: tuple[Objective, ...] = ("cosine", "reranker")  # the objectives that learn each pair's score
STS_MAX = 5.0
POSITIVE_MIN = 4.0 / STS_MAX  # an STS-B score of 4.0 or more counts as a paraphrase


class PairsError(ValueError):
    """Pairs that cannot be trained on; the message says why and what to do."""


@dataclass(frozen=True)
class PairSet:
    """`first[i]` and `second[i]` form a pair; `scores[i]` in [0, 1], or None for positives only."""

    source: str
    first: tuple[str, ...]
    second: tuple[str, ...]
    scores: tuple[float, ...] | None = None

    def __len__(self) -> int:
        return len(self.first)

    def for_objective(self, objective: Objective) -> PairSet:
        """Cosine and the reranker need scores; ranking, dense or multi-vector, takes positives only (pairs scored 0.8
        or more when scored)."""
        if objective not in OBJECTIVES:
            raise PairsError(f"Unknown objective {objective!r}; choose one of {', '.join(OBJECTIVES)}.")
        if objective in SCORED:
            if self.scores is None:
                raise PairsError(f"{self.source} has no score column, which the {objective} objective needs; "
                                 "add a third column of scores or choose the ranking objective (mnrl).")
            return self
        if self.scores is None:
            return self
        keep = [i for i, s in enumerate(self.scores) if s >= POSITIVE_MIN]
        return PairSet(self.source, tuple(self.first[i] for i in keep), tuple(self.second[i] for i in keep))

    def prepared(self, objective: Objective, batch_size: int) -> PairSet:
        """The pairs `objective` trains on, checked to fill at least one batch."""
        pairs = self.for_objective(objective)
        pairs.check_batch(batch_size)
        return pairs

    def check_batch(self, batch_size: int) -> None:
        if len(self) < batch_size:
            raise PairsError(f"{self.source} has {len(self)} usable pair(s), fewer than one batch of {batch_size}; "
                             "add pairs or lower the batch size.")

    def frame(self) -> pd.DataFrame:
        columns: dict[str, list] = {"sentence1": list(self.first), "sentence2": list(self.second)}
        if self.scores is not None:
            columns["score"] = list(self.scores)
        return pd.DataFrame(columns)


def stsb_train() -> PairSet:
    """All 5,749 STS-B train pairs with scores scaled from 0–5 to 0–1."""
    pairs = load_stsb("train")
    return PairSet("STS-B train", tuple(p.sentence1 for p in pairs), tuple(p.sentence2 for p in pairs),
                   tuple(p.score / STS_MAX for p in pairs))


def _scores(name: str, values: list[str], column: str) -> tuple[float, ...]:
    numbers = []
    for row, value in enumerate(values, start=2):
        try:
            number = float(value)
        except ValueError:
            raise PairsError(f"{name}: row {row} has the score '{value[:40]}' in column '{column}', which is not "
                             "a number; fix or remove that row.") from None
        if not math.isfinite(number) or not 0.0 <= number <= STS_MAX:
            raise PairsError(f"{name}: row {row} has the score {value} in column '{column}', outside 0–1 (or 0–5 "
                             "as in STS-B); rescale the scores into that range.")
        numbers.append(number)
    scale = STS_MAX if max(numbers) > 1.0 else 1.0
    return tuple(n / scale for n in numbers)


def pairs_from_table(name: str, frame: pd.DataFrame) -> PairSet:
    """The first two columns are the texts; a third, if present, holds the scores."""
    if frame.shape[1] < 2:
        raise PairsError(f"{name} has {frame.shape[1]} column(s); a pairs file needs two text columns "
                         "(and optionally a score column), e.g. a CSV with header sentence1,sentence2,score.")
    if frame.empty:
        raise PairsError(f"{name} has no rows; add one pair a row under the header.")
    columns = [str(c) for c in frame.columns[:3]]
    values = {c: [str(v).strip() for v in frame.iloc[:, i]] for i, c in enumerate(columns)}
    for column, cells in values.items():
        empty = [row for row, cell in enumerate(cells, start=2) if cell == "" or cell.lower() == "nan"]
        if empty:
            rows = ", ".join(map(str, empty[:5])) + (" …" if len(empty) > 5 else "")
            raise PairsError(f"{name}: {len(empty)} row(s) have no value in column '{column}' (row {rows}); "
                             "fill them in or remove those rows.")
    scores = _scores(name, values[columns[2]], columns[2]) if len(columns) == 3 else None
    return PairSet(name, tuple(values[columns[0]]), tuple(values[columns[1]]), scores)


def read_pairs(name: str, data: bytes) -> PairSet:
    """An uploaded .csv or .jsonl pairs file (its size checked against the upload limit)."""
    try:
        check_size(name, len(data))
        frame = parse_table(name, decode_text(name, data))
    except CorpusError as err:
        raise PairsError(str(err)) from err
    return pairs_from_table(name, frame)


def read_pairs_file(path: Path) -> PairSet:
    """A pairs file the command line was given; one of nothing but blanks (or no bytes) holds no texts: NoTexts."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PairsError(f"Cannot read {path} ({err.strerror}); check the path.") from err
    if not data.strip():
        raise NoTexts(path)
    return read_pairs(path.name, data)
