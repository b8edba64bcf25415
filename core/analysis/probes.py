"""What a layer's vectors know about a set of labels, measured as the probing literature measures it, on plain arrays.

- The probe (SentEval's protocol): L2-regularised logistic regression on standardised vectors, C chosen by an inner
  3-fold cross-validation over GRID (scikit-learn's LogisticRegressionCV, by accuracy), scored by a stratified 5-fold
  outer cross-validation with a fixed seed: accuracy and macro-F1 per fold, with a 95% interval over the folds
  (Student's t), beside the majority class's rate.
- The control task (Hewitt & Liang 2019): the same probe, with the C it chose in each fold, on the labels shuffled
  with a fixed seed; selectivity is the probe's accuracy minus the control's. A probe that fits shuffled labels well
  learns the vectors, not the labels.
- The words' baseline: the same protocol on TF-IDF vectors of the raw texts (no standardising: TF-IDF rows are unit
  length already); a layer that knows no more than the words does no better.
- Online codelength (Voita & Titov 2020): the labels sent block by block in a seeded order, the first block (0.1% of
  the texts) by the uniform code, each later block by a probe trained on every text before it. A class the probe has
  not seen yet must cost a finite number of bits, so each block is coded with (n p + 1) / (n + K), p the probe's
  probability and n the texts it was trained on (Laplace's rule: the class frequencies, smoothed, where the texts
  before hold one class). Compression is the uniform code's length (n log2 K) over the online code's."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import scipy.sparse as sp
from scipy import stats
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)  # the probe's C, chosen by the inner cross-validation
OUTER_FOLDS, INNER_FOLDS = 5, 3
SEED = 0
MIN_PER_CLASS = 5  # texts a class needs: one in each outer fold
PORTIONS = (0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.25, 12.5, 25.0, 50.0, 100.0)  # percent of the texts: the blocks
# lbfgs's stopping rule: scikit-learn's tolerance, and iterations enough for the small Cs the probes choose to converge;
# a large C's fit (nearly separable classes) may stop before it, which only lowers that C's chance of being chosen, so
# scikit-learn's ConvergenceWarning is not repeated
MAX_ITER = 1000
TOL = 1e-4

Matrix: TypeAlias = np.ndarray | sp.csr_matrix


@dataclass(frozen=True)
class Labels:
    """Each text's class as a code (0 … K-1) and the classes' names, in the order first seen."""

    codes: np.ndarray
    names: list[str]

    @property
    def count(self) -> int:
        return len(self.names)

    @property
    def majority(self) -> float:
        """The largest class's share: the accuracy of always answering it."""
        return float(np.bincount(self.codes).max() / len(self.codes))


def checked_labels(labels: Sequence[object]) -> Labels:
    """The labels as codes, or ValueError with one sentence: fewer than 2 classes, or a class of fewer than 5 texts."""
    names = list(dict.fromkeys(str(label) for label in labels))
    if len(names) < 2:
        found = f"one class, “{names[0]}”" if names else "no label"
        raise ValueError(f"A probe tells classes apart, and there is {found}: give labels of at least 2 classes.")
    index = {name: code for code, name in enumerate(names)}
    codes = np.fromiter((index[str(label)] for label in labels), dtype=np.int64, count=len(labels))
    counts = np.bincount(codes, minlength=len(names))
    small = [(names[i], int(counts[i])) for i in np.flatnonzero(counts < MIN_PER_CLASS)]
    if small:
        listed = ", ".join(f"“{name}” has {count}" for name, count in small[:3]) + (", …" if len(small) > 3 else "")
        raise ValueError(f"Each class needs at least {MIN_PER_CLASS} texts (one in each of the {OUTER_FOLDS} folds): "
                         f"{listed}; add texts to those classes or leave them out.")
    return Labels(codes, names)


def _scaled(sparse: bool) -> list:
    return [StandardScaler(with_mean=not sparse)]


def _regression(seed: int) -> LogisticRegressionCV:
    """L2-regularised logistic regression, C chosen by an inner 3-fold cross-validation over GRID by accuracy."""
    inner = StratifiedKFold(INNER_FOLDS, shuffle=True, random_state=seed)
    return LogisticRegressionCV(Cs=list(GRID), l1_ratios=(0.0,), cv=inner, scoring="accuracy", max_iter=MAX_ITER,
                                tol=TOL, use_legacy_attributes=False)


def probe_model(seed: int = SEED, *, sparse: bool = False) -> Pipeline:
    """The probe: standardise, then the regression."""
    return make_pipeline(*_scaled(sparse), _regression(seed))


def words_model(seed: int = SEED) -> Pipeline:
    """The words' baseline: TF-IDF of the raw texts, then the probe's regression."""
    return make_pipeline(TfidfVectorizer(sublinear_tf=True), _regression(seed))


@dataclass(frozen=True)
class CrossValidated:
    """A probe's outer cross-validation: each fold's accuracy, macro-F1 and chosen C, and every text's out-of-fold
    class probabilities."""

    accuracy: np.ndarray
    macro_f1: np.ndarray
    chosen: np.ndarray
    probabilities: np.ndarray  # (texts, K)

    @property
    def predicted(self) -> np.ndarray:
        return self.probabilities.argmax(axis=1)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the mean accuracy over the folds (Student's t), within 0 and 1."""
        folds = len(self.accuracy)
        half = float(stats.t.ppf(0.975, folds - 1) * self.accuracy.std(ddof=1) / np.sqrt(folds))
        mean = float(self.accuracy.mean())
        return max(0.0, mean - half), min(1.0, mean + half)

    @property
    def usual_c(self) -> float:
        """The C the folds chose most often (the smaller on a tie)."""
        counted = Counter(self.chosen.tolist())
        return min(counted, key=lambda c: (-counted[c], c))


def outer_folds(codes: np.ndarray, seed: int = SEED) -> list[tuple[np.ndarray, np.ndarray]]:
    return list(StratifiedKFold(OUTER_FOLDS, shuffle=True, random_state=seed).split(np.zeros(len(codes)), codes))


def cross_validate(make: Pipeline | None, inputs: Matrix | Sequence[str], codes: np.ndarray, classes: int, *,
                   seed: int = SEED, cs: Sequence[float] | None = None) -> CrossValidated:
    """`make` (a fresh copy per fold; by default the probe) fitted on each outer fold's training texts and scored on
    the rest; with `cs`, the probe with each fold's C given (the control task's) instead."""
    from sklearn.base import clone

    template = make if make is not None else probe_model(seed, sparse=sp.issparse(inputs))
    accuracy, macro, chosen = [], [], []
    probabilities = np.zeros((len(codes), classes))
    for fold, (train, test) in enumerate(outer_folds(codes, seed)):
        model = clone(template) if cs is None else make_pipeline(
            *_scaled(sp.issparse(inputs)), LogisticRegression(C=cs[fold], max_iter=MAX_ITER, tol=TOL))
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


def control_codes(codes: np.ndarray, seed: int = SEED) -> np.ndarray:
    """The control task's labels: the same labels, shuffled with a fixed seed (so each class keeps its size)."""
    return np.random.default_rng(seed).permutation(codes)


def block_ends(count: int, portions: Sequence[float] = PORTIONS) -> list[int]:
    """Where each block of the online code ends: each portion of `count` texts, rounded, at least one text, rising."""
    ends: list[int] = []
    for portion in portions:
        end = min(count, max(1, int(round(portion / 100 * count))))
        if not ends or end > ends[-1]:
            ends.append(end)
    return ends


@dataclass(frozen=True)
class Codelength:
    """The labels' online codelength in bits, the uniform code's, and their ratio."""

    bits: float
    uniform_bits: float

    @property
    def compression(self) -> float:
        return self.uniform_bits / self.bits if self.bits > 0 else float("inf")


def online_codelength(vectors: Matrix, codes: np.ndarray, classes: int, *, c: float, seed: int = SEED,
                      portions: Sequence[float] = PORTIONS) -> Codelength:
    """Voita & Titov's online code of `codes` given `vectors`, in a seeded order, each block's probe a logistic
    regression with the fixed `c` on standardised vectors (see the module's note for a class not seen yet)."""
    order = np.random.default_rng(seed).permutation(len(codes))
    ends = block_ends(len(codes), portions)
    bits = ends[0] * np.log2(classes)  # the first block, by the uniform code
    for start, end in zip(ends, ends[1:]):
        seen, coded = order[:start], order[start:end]
        p = _block_probabilities(vectors, codes, classes, seen, coded, c)
        bits += float(-np.log2((start * p[np.arange(len(coded)), codes[coded]] + 1) / (start + classes)).sum())
    return Codelength(float(bits), float(len(codes) * np.log2(classes)))


def _block_probabilities(vectors: Matrix, codes: np.ndarray, classes: int, seen: np.ndarray, coded: np.ndarray,
                         c: float) -> np.ndarray:
    """Each coded text's class probabilities from a probe trained on the texts seen (their one class, where only one
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
    """One layer's probe, its control and its online codelength."""

    layer: int
    probe: CrossValidated
    control: CrossValidated
    code: Codelength

    def record(self) -> dict[str, float | int]:
        low, high = self.probe.interval()
        accuracy, control = float(self.probe.accuracy.mean()), float(self.control.accuracy.mean())
        return {"layer": self.layer, "accuracy": accuracy, "accuracy_low": low, "accuracy_high": high,
                "macro_f1": float(self.probe.macro_f1.mean()), "control_accuracy": control,
                "selectivity": accuracy - control, "mdl_bits": self.code.bits, "uniform_bits": self.code.uniform_bits,
                "compression": self.code.compression}


def probe_layer(layer: int, vectors: Matrix, labels: Labels, *, seed: int = SEED) -> LayerProbe:
    """The probe of one layer's vectors, its control task and its online codelength (with the C its folds chose
    most often)."""
    probe = cross_validate(None, vectors, labels.codes, labels.count, seed=seed)
    control = cross_validate(None, vectors, control_codes(labels.codes, seed), labels.count, seed=seed,
                             cs=probe.chosen.tolist())
    code = online_codelength(vectors, labels.codes, labels.count, c=probe.usual_c, seed=seed)
    return LayerProbe(layer, probe, control, code)


def words_probe(texts: Sequence[str], labels: Labels, *, seed: int = SEED) -> CrossValidated:
    """The same protocol on TF-IDF vectors of the raw texts."""
    return cross_validate(words_model(seed), list(texts), labels.codes, labels.count, seed=seed)
