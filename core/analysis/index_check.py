"""Does a stored index still match its model? A seeded sample of the stored texts is embedded again with the model and
each stored vector is set against the fresh one:

- a row **agrees** when every dimension is within `AGREE` of the fresh vector;
- else it points **the same way** (cosine ≥ `SAME_WAY`) with another length: it was normalised where the model's are
  not, or the other way round;
- a stored vector narrower than the model's that points the way of the fresh one's first dimensions was **cut**
  (Matryoshka, or a truncation);
- a row the model gives under **another pooling** (where the kind lets the pooling be chosen) is named by it;
- anything else was made by **another model** (or another revision, prompt or layer).

The sample is of distinct, non-blank texts (a text repeated in the store is checked once). Retrieval over the sample
is compared both ways: each text's 10 nearest others by the stored vectors against by the fresh ones (overlap@10),
and each fresh vector, as a query, finding its own stored row among its 10 best (and the reverse)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.analysis.agreement import neighbour_overlap, overlap_k
from core.analysis.search import row_norms, top_k, unit_rows
from core.analysis.statistics import SEED
from core.data.sampling import sample_indices
from core.models.pooling import DEFAULT, MODES

SAMPLE = 500  # stored texts embedded again by default
AGREE = 1e-3  # a stored vector agrees with the fresh one when no dimension differs by more
SAME_WAY = 0.999  # the cosine above which two vectors point the same way
MATCHES = 0.99  # the share of agreeing rows that says the index is the model's
MOSTLY = 0.9  # the share of one explanation that names the index's
SUSPECTS = 20  # rows listed that do not agree, the least alike first
MIN_SAMPLE = 3  # distinct texts a check needs (one text and two neighbours)

AGREES, LENGTHS, CUT, OTHER = "agrees", "lengths", "cut", "other"


@dataclass(frozen=True)
class IndexCheck:
    """`rows`: the sampled rows' positions in the store; `looks`: what each row's stored vector looks like (AGREES,
    LENGTHS, CUT, "pooling:NAME" or OTHER); `cosines`: each against the fresh vector (cut to the stored width where
    the stored one is narrower), None where the stored one is wider."""

    rows: np.ndarray
    looks: np.ndarray
    cosines: np.ndarray | None
    stored_width: int
    model_width: int
    stored_norm: float  # the median length of the sampled stored vectors
    model_norm: float
    overlap_at_10: float
    k: int
    fresh_finds_stored: float | None  # the share of fresh vectors whose own stored row is among their k best
    stored_finds_fresh: float | None
    skipped: int  # rows not sampled because their text is blank or repeats an earlier row's

    @property
    def sample(self) -> int:
        return len(self.rows)

    @property
    def agree_share(self) -> float:
        return float(np.mean(self.looks == AGREES))

    def shares(self) -> dict[str, float]:
        return {look: count / self.sample for look, count in Counter(self.looks.tolist()).most_common()}

    @property
    def verdict(self) -> str:
        """"matches", "other_normalisation", "cut_dimensions", "other_pooling", "other_model" or "mixed"."""
        if self.agree_share >= MATCHES:
            return "matches"
        look, share = next(iter(self.shares().items()))
        if share < MOSTLY and self.agree_share > 0:
            return "mixed"
        return {LENGTHS: "other_normalisation", CUT: "cut_dimensions", AGREES: "mixed"}.get(
            look, "other_pooling" if look.startswith("pooling:") else "other_model")

    def message(self, model_id: str) -> str:
        """The verdict as one sentence, with what to do."""
        shares = self.shares()
        look = next(iter(shares))
        verdict = self.verdict
        if verdict == "matches":
            return (f"The stored vectors are {model_id}'s: {self.agree_share:.1%} of {self.sample:,} sampled rows "
                    f"agree with it to {AGREE:g} in every dimension.")
        if verdict == "mixed":
            rest = {look: share for look, share in shares.items() if look != AGREES}
            return (f"The index is mixed: of {self.sample:,} sampled rows, {self.agree_share:.0%} agree with "
                    f"{model_id} and {_looks_text(rest)}; the rows listed were written another way, so embed them "
                    "again.")
        if verdict == "other_normalisation":
            stored, fresh = ("normalised", "are not") if abs(self.stored_norm - 1) < abs(self.model_norm - 1) else (
                "not normalised", "are")
            return (f"The stored vectors point where {model_id}'s do but are {stored} (median length "
                    f"{self.stored_norm:.3g}; the model's {fresh}, {self.model_norm:.3g}): compare them by cosine, or "
                    "set normalisation to match.")
        if verdict == "cut_dimensions":
            return (f"The stored vectors are {model_id}'s cut to their first {self.stored_width:,} of "
                    f"{self.model_width:,} dimensions: check again keeping {self.stored_width:,} dimensions.")
        if verdict == "other_pooling":
            pooling = look.removeprefix("pooling:")
            if pooling == DEFAULT:
                return (f"The stored vectors are {model_id}'s pooled its own way, not as chosen: check again with the "
                        "model's own pooling.")
            return (f"The stored vectors are {model_id}'s pooled by {pooling} ({MODES[pooling].help}), not as "
                    f"chosen: check again with the {pooling} pooling.")
        if self.cosines is None:
            return (f"The stored vectors have {self.stored_width:,} dimensions and {model_id} gives "
                    f"{self.model_width:,}: another model made them; check them against that model.")
        return (f"The stored vectors are not {model_id}'s (median cosine to its vectors "
                f"{float(np.median(self.cosines)):.3f}): another model, revision, prompt or layer made them; check "
                "them against the model that wrote the index.")

    def record(self, model_id: str, row_ids: Sequence[str] | None = None,
               texts: Sequence[str] | None = None) -> dict[str, Any]:
        """Flat JSON: the sample's measures, the verdict, its sentence, each look's share and the rows that do not
        agree (the least alike first), with their row ids and texts where given."""
        cosines = self.cosines
        order = np.argsort(cosines if cosines is not None else np.zeros(self.sample), kind="stable")
        suspects = [int(i) for i in order if self.looks[i] != AGREES][:SUSPECTS]
        return {
            "sample": self.sample, "skipped": self.skipped,
            "median_cosine": None if cosines is None else float(np.median(cosines)),
            "p5_cosine": None if cosines is None else float(np.percentile(cosines, 5)),
            "agree_share": self.agree_share, "overlap_at_10": self.overlap_at_10, "k": self.k,
            "fresh_finds_stored": self.fresh_finds_stored, "stored_finds_fresh": self.stored_finds_fresh,
            "stored_dimensions": self.stored_width, "model_dimensions": self.model_width,
            "stored_median_norm": self.stored_norm, "model_median_norm": self.model_norm,
            "verdict": self.verdict, "message": self.message(model_id), "looks": self.shares(),
            "rows_unlike": [{"row": int(self.rows[i]), "looks": str(self.looks[i]),
                             "cosine": None if cosines is None else float(cosines[i]),
                             **({"row_id": row_ids[self.rows[i]]} if row_ids is not None else {}),
                             **({"text": texts[self.rows[i]]} if texts is not None else {})} for i in suspects],
        }


def sampled_rows(texts: Sequence[str], *, limit: int = SAMPLE, seed: int = SEED) -> tuple[np.ndarray, int]:
    """A seeded sample of at most `limit` rows, one per distinct non-blank text (its first row), in store order; and
    how many rows were passed over as blank or repeated."""
    first: dict[str, int] = {}
    for row, text in enumerate(texts):
        if text.strip():
            first.setdefault(text, row)
    candidates = np.fromiter(first.values(), dtype=np.int64, count=len(first))
    return candidates[sample_indices(len(candidates), limit=limit, seed=seed)], len(texts) - len(candidates)


def row_cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each row of `a` against the same row of `b`, within [-1, 1] (float32 rounding can step past 1)."""
    return np.clip(np.einsum("ij,ij->i", unit_rows(a), unit_rows(b)).astype(np.float64), -1, 1)


def first_looks(stored: np.ndarray, fresh: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """What each stored row looks like against the model's fresh one, before other poolings are tried: AGREES,
    LENGTHS, CUT or OTHER; and the cosines (against the fresh vectors' first dimensions where the stored are
    narrower; None where they are wider)."""
    width = stored.shape[1]
    if width > fresh.shape[1]:
        return np.full(len(stored), OTHER, dtype=object), None
    comparable = fresh[:, :width]
    cosines = row_cosines(stored, comparable)
    looks = np.full(len(stored), OTHER, dtype=object)
    looks[cosines >= SAME_WAY] = LENGTHS if width == fresh.shape[1] else CUT
    if width == fresh.shape[1]:
        looks[np.abs(stored.astype(np.float64) - fresh).max(axis=1) <= AGREE] = AGREES
    return looks, cosines


def _retrieval(queries: np.ndarray, corpus: np.ndarray, k: int) -> float:
    """The share of queries whose own row (the same position) is among their k best in the corpus, by cosine."""
    hits = top_k(unit_rows(queries), unit_rows(corpus), k).indices
    return float(np.mean((hits == np.arange(len(queries))[:, None]).any(axis=1)))


def judged(stored: np.ndarray, fresh: np.ndarray, looks: np.ndarray, cosines: np.ndarray | None, rows: np.ndarray,
           skipped: int) -> IndexCheck:
    k = overlap_k(len(rows))
    comparable = cosines is not None
    width = stored.shape[1]
    return IndexCheck(
        rows=rows, looks=looks, cosines=cosines, stored_width=width, model_width=fresh.shape[1],
        stored_norm=float(np.median(row_norms(stored))), model_norm=float(np.median(row_norms(fresh))),
        overlap_at_10=neighbour_overlap(stored, fresh, k=k).mean, k=k,
        fresh_finds_stored=_retrieval(fresh[:, :width], stored, k) if comparable else None,
        stored_finds_fresh=_retrieval(stored, fresh[:, :width], k) if comparable else None,
        skipped=skipped)


def _looks_text(shares: dict[str, float]) -> str:
    names = {LENGTHS: "have other lengths", CUT: "were cut", OTHER: "look like another model's"}
    return ", ".join(f"{share:.0%} {names.get(look, look.replace('pooling:', 'were pooled by '))}"
                     for look, share in shares.items())
