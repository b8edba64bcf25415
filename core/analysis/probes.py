"""What a layer's vectors know about a set of labels, measured as the probing literature measures it, on plain arrays.

Rows whose label is blank are no evidence of a class: they are left out, and counted. Texts repeat in real data (one
message logged a thousand times), and a probe scored on a text it was trained on measures memory, not knowledge: every
split below keeps the rows of one text on one side (core.analysis.statistics, `grouped_folds`).

- The probe (SentEval's protocol): L2-regularised logistic regression on standardised vectors, C chosen by an inner
  3-fold cross-validation over GRID (scikit-learn's LogisticRegressionCV, by accuracy), scored by a stratified 5-fold
  outer cross-validation with a fixed seed: accuracy and macro-F1 per fold, with a 95% interval over the folds
  (Student's t), beside the majority class's rate.
- Labels shuffled: the same probe, with the C it chose in each fold, on the labels shuffled with a fixed seed. Held-out
  rows' shuffled labels cannot be predicted, so this is the chance line of the probe's own protocol, no more.
- Untrained: the same probe on the vectors of the same architecture with seeded random weights (Wieting & Kiela 2019,
  "No training required"): what the architecture gives without training, so the gap is what training added.
- The words' baseline: the same protocol on TF-IDF vectors of the raw texts (no standardising: TF-IDF rows are unit
  length already); a layer that knows no more than the words does no better.
- Online codelength (Voita & Titov 2020): the labels sent block by block in a seeded order of the texts (a text's
  rows together, in one block), the first block (0.1% of the rows) by the uniform code, each later block by a probe
  trained on every row before it. A class the probe has not seen yet must cost a finite number of bits, so each block
  is coded with (n p + 1) / (n + K), p the probe's probability and n the rows it was trained on (Laplace's rule: the
  class frequencies, smoothed, where the rows before hold one class). Compression is the uniform code's length
  (n log2 K) over the online code's."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import accuracy_score, f1_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from core.analysis.statistics import SEED, Folds, grouped_folds, t_interval
from core.data.rows import distinct

GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)  # the probe's C, chosen by the inner cross-validation
OUTER_FOLDS, INNER_FOLDS = 5, 3
MIN_PER_CLASS = 5  # different texts a class needs: one in each outer fold
PORTIONS = (0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.25, 12.5, 25.0, 50.0, 100.0)  # percent of the rows: the blocks
# lbfgs's stopping rule: scikit-learn's tolerance, and iterations enough for the small Cs the probes choose to converge;
# a large C's fit (nearly separable classes) may stop before it, which only lowers that C's chance of being chosen, so
# scikit-learn's ConvergenceWarning is not repeated
MAX_ITER = 1000
TOL = 1e-4

Matrix: TypeAlias = np.ndarray | sp.csr_matrix


def is_blank(label: object) -> bool:
    """A label left empty (nothing, NaN, or only spaces): no label at all, never a class of its own."""
    return label is None or (isinstance(label, float) and label != label) or not str(label).strip()


@dataclass(frozen=True)
class Labels:
    """The probed rows (`rows`: their places among the `given` rows; blank labels and classes too small to probe left
    out), each one's class as a code (0 … K-1), the classes' names in the order first seen, and each one's group (the
    rows of one text share one)."""

    codes: np.ndarray
    names: list[str]
    groups: np.ndarray
    rows: np.ndarray
    given: int
    unlabelled: int  # rows left out for a blank label
    left_out: dict[str, int]  # classes left out for fewer than MIN_PER_CLASS different texts -> how many they have

    @property
    def count(self) -> int:
        return len(self.names)

    @property
    def majority(self) -> float:
        """The largest class's share: the accuracy of always answering it."""
        return float(np.bincount(self.codes).max() / len(self.codes))

    def said(self) -> str:
        """What was left out, in a sentence ("" where nothing was)."""
        parts = [f"{self.unlabelled:,} of the {self.given:,} rows have a blank label"] if self.unlabelled else []
        if self.left_out:
            parts.append(_few(self.left_out) + f" (a class needs {MIN_PER_CLASS}, one in each of the {OUTER_FOLDS} "
                         "folds; a repeated text counts once)")
        return f"Left out: {'; '.join(parts)}." if parts else ""


def _few(classes: dict[str, int]) -> str:
    listed = [f"“{name}” has {count} different text{'s' * (count != 1)}" for name, count in classes.items()]
    return ", ".join(listed[:3]) + (", …" if len(listed) > 3 else "")


def checked_labels(labels: Sequence[object], texts: Sequence[str]) -> Labels:
    """The probed rows' classes as codes and their texts' groups: blank labels left out, and classes of fewer than
    5 different texts; ValueError with one sentence where fewer than 2 classes are left."""
    if len(labels) != len(texts):
        raise ValueError(f"There are {len(labels):,} labels and {len(texts):,} texts: give one label per text.")
    labelled = [i for i, label in enumerate(labels) if not is_blank(label)]
    named = [str(labels[i]).strip() for i in labelled]
    groups = distinct(texts).rows
    different = {name: len({groups[i] for i, given in zip(labelled, named) if given == name})
                 for name in dict.fromkeys(named)}
    small = {name: count for name, count in different.items() if count < MIN_PER_CLASS}
    names = [name for name in different if name not in small]
    blank = len(labels) - len(labelled)
    if len(names) < 2:
        blanks = f" ({blank:,} rows with a blank label left out)" if blank else ""
        if small:
            raise ValueError(f"Each class needs at least {MIN_PER_CLASS} different texts (one in each of the "
                             f"{OUTER_FOLDS} folds; a repeated text counts once): {_few(small)}{blanks}; add texts "
                             "to those classes.")
        found = f"one class, “{names[0]}”" if names else "no label"
        raise ValueError(f"A probe tells classes apart, and there is {found}{blanks}: give labels of at least 2 "
                         "classes.")
    index = {name: code for code, name in enumerate(names)}
    kept = [(i, index[name]) for i, name in zip(labelled, named) if name in index]
    rows = np.fromiter((i for i, _ in kept), dtype=np.int64, count=len(kept))
    codes = np.fromiter((code for _, code in kept), dtype=np.int64, count=len(kept))
    return Labels(codes, names, distinct([texts[i] for i in rows]).rows, rows, len(labels), blank, small)


def _scaled(sparse: bool) -> list:
    return [StandardScaler(with_mean=not sparse)]


def _regression(inner: Folds) -> LogisticRegressionCV:
    """L2-regularised logistic regression, C chosen over GRID by accuracy on the `inner` folds of its training rows."""
    return LogisticRegressionCV(Cs=list(GRID), l1_ratios=(0.0,), cv=inner, scoring="accuracy", max_iter=MAX_ITER,
                                tol=TOL, use_legacy_attributes=False)


def probe_model(inner: Folds, *, sparse: bool = False) -> Pipeline:
    """The probe: standardise, then the regression."""
    return make_pipeline(*_scaled(sparse), _regression(inner))


def words_model(inner: Folds) -> Pipeline:
    """The words' baseline: TF-IDF of the raw texts, then the probe's regression."""
    return make_pipeline(TfidfVectorizer(sublinear_tf=True), _regression(inner))


@dataclass(frozen=True)
class CrossValidated:
    """A probe's outer cross-validation: each fold's accuracy, macro-F1 and chosen C, and every row's out-of-fold
    class probabilities."""

    accuracy: np.ndarray
    macro_f1: np.ndarray
    chosen: np.ndarray
    probabilities: np.ndarray  # (rows, K)

    @property
    def predicted(self) -> np.ndarray:
        return self.probabilities.argmax(axis=1)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the mean accuracy over the folds (Student's t), within 0 and 1."""
        return t_interval(self.accuracy)

    @property
    def usual_c(self) -> float:
        """The C the folds chose most often (the smaller on a tie)."""
        counted = Counter(self.chosen.tolist())
        return min(counted, key=lambda c: (-counted[c], c))


def outer_folds(codes: np.ndarray, groups: np.ndarray, seed: int = SEED) -> Folds:
    return grouped_folds(codes, groups, OUTER_FOLDS, seed)


Inputs = TypeVar("Inputs", np.ndarray, sp.csr_matrix, Sequence[str])


def used_columns(inputs: Inputs) -> Inputs:
    """A sparse model's rows without the vocabulary's columns that no row uses. The probe is the same: an L2
    logistic regression leaves a column that is zero in every row at weight 0 (its gradient is 0 from the start),
    and standardising does not touch it; but each of lbfgs's steps costs the matrix's width, a BERT vocabulary's
    30,522 columns however few the rows use (`python -m core probe` of the tests' tiny SPLADE on 150 rows, its test:
    33 s before, 15 s after)."""
    if isinstance(inputs, sp.csr_matrix):
        return inputs[:, np.unique(inputs.indices)]
    return inputs


def cross_validate(inputs: Matrix | Sequence[str], codes: np.ndarray, groups: np.ndarray, classes: int, *,
                   make: Callable[[Folds], Pipeline] | None = None, seed: int = SEED,
                   cs: Sequence[float] | None = None) -> CrossValidated:
    """`make(inner folds)` (by default the probe) fitted on each outer fold's training rows, its C chosen on inner
    folds of them, and scored on the rest; with `cs`, the probe with each fold's C given (labels shuffled) instead.
    Every split, outer and inner, keeps each group's rows on one side."""
    inputs = used_columns(inputs)
    accuracy, macro, chosen = [], [], []
    probabilities = np.zeros((len(codes), classes))
    for fold, (train, test) in enumerate(outer_folds(codes, groups, seed)):
        if cs is not None:
            model = make_pipeline(*_scaled(sp.issparse(inputs)), LogisticRegression(C=cs[fold], max_iter=MAX_ITER,
                                                                                    tol=TOL))
        else:
            inner = grouped_folds(codes[train], groups[train], INNER_FOLDS, seed)
            model = make(inner) if make is not None else probe_model(inner, sparse=sp.issparse(inputs))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fitted = model.fit(_rows(inputs, train), codes[train])
        found = fitted.predict_proba(_rows(inputs, test))
        regression = fitted[-1]
        probabilities[np.ix_(test, regression.classes_)] = found
        predicted = regression.classes_[found.argmax(axis=1)]
        accuracy.append(accuracy_score(codes[test], predicted))
        macro.append(f1_score(codes[test], predicted, average="macro", labels=np.arange(classes), zero_division=0))
        chosen.append(float(regression.C_ if cs is None else regression.C))
    return CrossValidated(np.asarray(accuracy), np.asarray(macro), np.asarray(chosen), probabilities)


def _rows(inputs: Matrix | Sequence[str], rows: np.ndarray) -> Matrix | list[str]:
    if isinstance(inputs, np.ndarray | sp.csr_matrix):
        return inputs[rows]
    return [inputs[int(i)] for i in rows]


def shuffled_codes(codes: np.ndarray, seed: int = SEED) -> np.ndarray:
    """The labels shuffled with a fixed seed (so each class keeps its size): the chance line's labels."""
    return np.random.default_rng(seed).permutation(codes)


def block_ends(count: int, portions: Sequence[float] = PORTIONS) -> list[int]:
    """Where each block of the online code ends: each portion of `count` rows, rounded, at least one row, rising."""
    ends: list[int] = []
    for portion in portions:
        end = min(count, max(1, int(round(portion / 100 * count))))
        if not ends or end > ends[-1]:
            ends.append(end)
    return ends


def coding_order(groups: np.ndarray, seed: int = SEED) -> tuple[np.ndarray, list[int]]:
    """The rows in the online code's order (the groups in a seeded order, each group's rows together) and where its
    blocks end: each of `block_ends`, moved on to the end of the group it falls in, so a text's rows are sent in one
    block and none is coded by a probe trained on its own copy."""
    place = np.random.default_rng(seed).permutation(int(groups.max()) + 1)
    order = np.argsort(place[groups], kind="stable")
    ordered = place[groups][order]
    boundaries = np.r_[np.flatnonzero(ordered[1:] != ordered[:-1]) + 1, len(order)]
    ends: list[int] = []
    for end in block_ends(len(order)):
        moved = int(boundaries[np.searchsorted(boundaries, end)])
        if not ends or moved > ends[-1]:
            ends.append(moved)
    return order, ends


@dataclass(frozen=True)
class Codelength:
    """The labels' online codelength in bits, the uniform code's, and their ratio."""

    bits: float
    uniform_bits: float

    @property
    def compression(self) -> float:
        return self.uniform_bits / self.bits if self.bits > 0 else float("inf")


def online_codelength(vectors: Matrix, codes: np.ndarray, groups: np.ndarray, classes: int, *, c: float,
                      seed: int = SEED) -> Codelength:
    """Voita & Titov's online code of `codes` given `vectors`, in the seeded `coding_order`, each block's probe a
    logistic regression with the fixed `c` on standardised vectors (see the module's note for a class not seen yet)."""
    vectors = used_columns(vectors)
    order, ends = coding_order(groups, seed)
    bits = ends[0] * np.log2(classes)  # the first block, by the uniform code
    for start, end in zip(ends, ends[1:]):
        seen, coded = order[:start], order[start:end]
        p = _block_probabilities(vectors, codes, classes, seen, coded, c)
        bits += float(-np.log2((start * p[np.arange(len(coded)), codes[coded]] + 1) / (start + classes)).sum())
    return Codelength(float(bits), float(len(codes) * np.log2(classes)))


def _block_probabilities(vectors: Matrix, codes: np.ndarray, classes: int, seen: np.ndarray, coded: np.ndarray,
                         c: float) -> np.ndarray:
    """Each coded row's class probabilities from a probe trained on the rows seen (their one class, where only one
    is)."""
    probabilities = np.zeros((len(coded), classes))
    present = np.unique(codes[seen])
    if len(present) == 1:
        probabilities[:, present[0]] = 1.0
        return probabilities
    model = make_pipeline(*_scaled(sp.issparse(vectors)), LogisticRegression(C=c, max_iter=MAX_ITER, tol=TOL))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(vectors[seen], codes[seen])
    probabilities[:, model[-1].classes_] = model.predict_proba(vectors[coded])
    return probabilities


@dataclass(frozen=True)
class LayerProbe:
    """One layer's probe, its chance line (labels shuffled), the untrained architecture's probe (None where the
    model's cannot be rebuilt untrained) and its online codelength."""

    layer: int
    probe: CrossValidated
    shuffled: CrossValidated
    untrained: CrossValidated | None
    code: Codelength

    def record(self) -> dict[str, float | int | None]:
        low, high = self.probe.interval()
        return {"layer": self.layer, "accuracy": float(self.probe.accuracy.mean()), "accuracy_low": low,
                "accuracy_high": high, "macro_f1": float(self.probe.macro_f1.mean()),
                "shuffled_accuracy": float(self.shuffled.accuracy.mean()),
                "untrained_accuracy": None if self.untrained is None else float(self.untrained.accuracy.mean()),
                "mdl_bits": self.code.bits, "uniform_bits": self.code.uniform_bits,
                "compression": self.code.compression}


def probe_layer(layer: int, vectors: Matrix, labels: Labels, *, untrained: Matrix | None = None,
                seed: int = SEED) -> LayerProbe:
    """The probe of one layer's vectors, its chance line, the probe of the untrained architecture's vectors of the
    layer (where given), and the online codelength (with the C its folds chose most often)."""
    probe = cross_validate(vectors, labels.codes, labels.groups, labels.count, seed=seed)
    shuffled = cross_validate(vectors, shuffled_codes(labels.codes, seed), labels.groups, labels.count, seed=seed,
                              cs=probe.chosen.tolist())
    baseline = None if untrained is None else cross_validate(untrained, labels.codes, labels.groups, labels.count,
                                                             seed=seed)
    code = online_codelength(vectors, labels.codes, labels.groups, labels.count, c=probe.usual_c, seed=seed)
    return LayerProbe(layer, probe, shuffled, baseline, code)


def words_probe(texts: Sequence[str], labels: Labels, *, seed: int = SEED) -> CrossValidated:
    """The same protocol on TF-IDF vectors of the raw texts (the labelled rows' texts)."""
    return cross_validate(list(texts), labels.codes, labels.groups, labels.count, make=words_model, seed=seed)
