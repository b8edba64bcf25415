"""A concept as a direction in a layer's space, and the texts whose labels the space disagrees with.

A direction: two groups of texts (two labels, or a tag against the rest) give a probe of one against the other
(logistic regression on standardised vectors, C = 1); its weight vector, scaled to unit length, is the concept's
direction, and each text's score is its standardised vector's projection on it. Whether the concept is real is tested
as TCAV tests a concept vector against random ones: the groups' separation along the direction (Cohen's d of the
scores) against their separation along seeded random directions. A direction fitted to the texts separates them even
where nothing does (in hundreds of dimensions a few texts are always separable), so the separation tested is of
out-of-fold scores: each text scored by a direction fitted without it (5 folds, each text's rows on one side: a
text repeated is never scored by a direction fitted on its copy).

Mislabels: cleanlab's confident learning (`find_label_issues`) on a probe's out-of-fold class probabilities lists the
texts whose label the layer's space disagrees with, least self-confident first. cleanlab would share the work out
among processes of its own; a server forks nothing (a fork beside other threads can copy a lock another thread
holds, and the child waits on it for ever), so it runs in this process, one call at a time (it keeps its work in
module globals)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from core.analysis.statistics import SEED, grouped_folds
from core.data.rows import distinct

RANDOM_DIRECTIONS = 100
FOLDS = 5
_CLEANLAB = threading.Lock()  # cleanlab's find_label_issues keeps its work in module globals: one call at a time
ENDS = 10  # texts listed at each end of a direction


def separation(scores: np.ndarray, inside: np.ndarray) -> float:
    """Cohen's d of the scores: the groups' mean difference over their pooled standard deviation."""
    first, second = scores[inside], scores[~inside]
    pooled = np.sqrt(((len(first) - 1) * first.var(ddof=1) + (len(second) - 1) * second.var(ddof=1))
                     / (len(first) + len(second) - 2))
    return float((first.mean() - second.mean()) / pooled) if pooled > 0 else 0.0


def _direction(vectors: np.ndarray, inside: np.ndarray) -> tuple[StandardScaler, np.ndarray]:
    scaler = StandardScaler().fit(vectors)
    weights = LogisticRegression(C=1.0, max_iter=1000).fit(scaler.transform(vectors), inside).coef_[0]
    return scaler, weights / np.linalg.norm(weights)


@dataclass(frozen=True)
class Direction:
    """A concept's direction: every text's score along it, the texts of the first group (`inside`), the groups'
    out-of-fold separation, and the separations of random directions it is tested against."""

    scores: np.ndarray
    inside: np.ndarray
    separation: float
    random: np.ndarray

    @property
    def p_value(self) -> float:
        """The share of random directions separating the groups at least as far (either way), counting this one."""
        beaten = int((np.abs(self.random) >= abs(self.separation)).sum())
        return (beaten + 1) / (len(self.random) + 1)

    def ends(self, texts: Sequence[str], top: int = ENDS) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the `top` texts scoring highest (most like the first group) and of the `top` lowest, each text
        once (a text repeated scores alike in every row)."""
        order = np.argsort(-self.scores, kind="stable")
        first = np.sort(np.unique(distinct(texts).rows, return_index=True)[1])  # each text's first row
        once = order[np.isin(order, first)]
        return once[:top], once[::-1][:top]


# the fits' BLAS on one thread: on two, a direction of 2,000 texts (384 dimensions) took 0.59 s against 0.06 s
@threadpool_limits.wrap(limits=1, user_api="blas")
def concept_direction(vectors: np.ndarray, kept: np.ndarray, inside: np.ndarray, texts: Sequence[str], *,
                      random: int = RANDOM_DIRECTIONS, seed: int = SEED) -> Direction:
    """The direction of the `kept` texts `inside` (the first group) against the other kept ones, and every text's score
    along it; ValueError where a group has fewer than 5 different texts."""
    kept, inside = np.asarray(kept, dtype=bool), np.asarray(inside, dtype=bool)
    groups, first = vectors[kept], inside[kept]
    same = distinct([text for text, keep in zip(texts, kept) if keep]).rows  # the rows of one text
    different = [len(np.unique(same[first])), len(np.unique(same[~first]))]
    if min(different) < FOLDS:
        raise ValueError(f"A direction needs at least {FOLDS} different texts in each group (one in each of the "
                         f"{FOLDS} folds that test it; a repeated text counts once), not {different[0]} and "
                         f"{different[1]}; add texts.")
    scaler, weights = _direction(groups, first)
    held = np.zeros(len(groups))
    for train, test in grouped_folds(first, same, FOLDS, seed):
        fold_scaler, fold_weights = _direction(groups[train], first[train])
        held[test] = fold_scaler.transform(groups[test]) @ fold_weights
    standardised = scaler.transform(groups)
    # not scaled to unit length: Cohen's d is the same along a direction at any length
    directions = np.random.default_rng(seed).standard_normal((random, vectors.shape[1]))
    chance = np.array([separation(standardised @ direction, first) for direction in directions])
    return Direction(scaler.transform(vectors) @ weights, inside, separation(held, first), chance)


def mislabelled(codes: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """The texts cleanlab's confident learning finds mislabelled, given out-of-fold class probabilities, least
    self-confident (the probability of their own label lowest) first."""
    from cleanlab.filter import find_label_issues

    with _CLEANLAB:
        return np.asarray(find_label_issues(labels=codes, pred_probs=probabilities, n_jobs=1,
                                            return_indices_ranked_by="self_confidence"), dtype=np.int64)


def group_mask(labels: Sequence[str], first: str, second: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Which texts are in either group (`second` None: every text, the rest being the second), and which are
    `first`'s."""
    given = np.asarray(labels, dtype=object)
    kept = np.ones(len(given), dtype=bool) if second is None else np.isin(given, [first, second])
    return kept, given == first


def label_direction(vectors: np.ndarray | sp.csr_matrix, labels: Sequence[str], texts: Sequence[str], first: str,
                    second: str | None = None, *, seed: int = SEED) -> Direction:
    """The direction of the texts labelled `first` against `second`'s (None: every other text), tested against random
    directions (concept_direction); ValueError with one sentence for a label no text has, a group too small, or
    a sparse model's vocabulary-wide rows."""
    for name in (first, *([second] if second is not None else [])):
        if name not in labels:
            raise ValueError(f"No text is labelled “{name}”; the labels are: {', '.join(dict.fromkeys(labels))}.")
    if sp.issparse(vectors):
        raise ValueError("A direction is a weight vector over dense dimensions; a sparse model's rows are as wide as "
                         "its vocabulary: use a dense model's layers for one.")
    kept, inside = group_mask(labels, first, second)
    return concept_direction(np.asarray(vectors), kept, inside, texts, seed=seed)


def direction_title(first: str, second: str | None) -> str:
    """What a colour scale along a direction runs over: from `second` (None: every other text) to `first`."""
    return f"{f'not {first}' if second is None else second} → {first}"
