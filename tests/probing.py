"""Independent computations of the probes (core.analysis.probes), written out from the definitions with plain
scikit-learn and numpy: the nested cross-validation as loops of LogisticRegression, and the online code block by block.
The tests compare the app's numbers with these.

The regularisation path is followed as LogisticRegressionCV follows it: on each inner fold, each C starts from the
previous C's solution, and the refit starts from the folds' mean solution at the chosen C. lbfgs stops near, not at,
the optimum of a weakly regularised (large C) fit, so the starting point can move a prediction there."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)
PORTIONS = (0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.25, 12.5, 25.0, 50.0, 100.0)


MAX_ITER, TOL = 1000, 1e-4


def _path(x, y: np.ndarray, held_x, held_y: np.ndarray) -> tuple[list[float], list[np.ndarray]]:
    """Each C's accuracy on the held rows and its solution (coefficients, then intercepts), C after C."""
    model = LogisticRegression(max_iter=MAX_ITER, tol=TOL, warm_start=True)
    scores, solutions = [], []
    for c in GRID:
        model.set_params(C=c).fit(x, y)
        scores.append(float((model.predict(held_x) == held_y).mean()))
        solutions.append(np.column_stack([model.coef_, model.intercept_]))
    return scores, solutions


def fixed_c(x: np.ndarray, y: np.ndarray, cs: Sequence[float], *, seed: int = 0) -> list[float]:
    """Each outer fold's accuracy of the probe with that fold's C given, on standardised vectors."""
    accuracies = []
    for (train, test), c in zip(StratifiedKFold(5, shuffle=True, random_state=seed).split(np.zeros(len(y)), y), cs):
        scaler = StandardScaler().fit(x[train])
        model = LogisticRegression(C=c, max_iter=MAX_ITER, tol=TOL).fit(scaler.transform(x[train]), y[train])
        accuracies.append(float((model.predict(scaler.transform(x[test])) == y[test]).mean()))
    return accuracies


def nested_cv(x, y: np.ndarray, *, seed: int = 0, prepare: Callable | None = None) -> tuple[list[float], list[float]]:
    """Each outer fold's accuracy and chosen C: the fold's training rows prepared (standardised by default; `prepare`
    returns a fitted transformer), every C scored by the mean accuracy of a 3-fold split of them, the best (the first
    on a tie) refitted on all of them."""
    prepare = prepare or (lambda rows: StandardScaler().fit(rows))
    accuracies, chosen = [], []
    for train, test in StratifiedKFold(5, shuffle=True, random_state=seed).split(np.zeros(len(y)), y):
        step = prepare(_take(x, train))
        inputs, labels = step.transform(_take(x, train)), y[train]
        inner = StratifiedKFold(3, shuffle=True, random_state=seed).split(np.zeros(len(train)), labels)
        paths = [_path(inputs[fit], labels[fit], inputs[held], labels[held]) for fit, held in inner]
        best = int(np.argmax(np.mean([scores for scores, _ in paths], axis=0)))
        start = np.mean([solutions[best] for _, solutions in paths], axis=0)
        model = LogisticRegression(C=GRID[best], max_iter=MAX_ITER, tol=TOL, warm_start=True)
        model.coef_, model.intercept_ = start[:, :-1].copy(), start[:, -1].copy()
        model.fit(inputs, labels)
        accuracies.append(float((model.predict(step.transform(_take(x, test))) == y[test]).mean()))
        chosen.append(GRID[best])
    return accuracies, chosen


def _take(x, rows):
    return [x[i] for i in rows] if isinstance(x, list) else x[rows]


def online_bits(x: np.ndarray, y: np.ndarray, classes: int, *, c: float, seed: int = 0,
                portions: Sequence[float] = PORTIONS) -> float:
    """Voita & Titov's online code, block by block: the first by the uniform code, each later one by a probe trained
    on the texts before it, its probability p smoothed as (n p + 1) / (n + K) (the class frequencies where those
    texts hold one class)."""
    n = len(y)
    order = np.random.default_rng(seed).permutation(n)
    ends = []
    for portion in portions:
        end = min(n, max(1, round(portion / 100 * n)))
        if not ends or end > ends[-1]:
            ends.append(end)
    bits = ends[0] * np.log2(classes)
    for start, end in zip(ends, ends[1:]):
        seen, coded = order[:start], order[start:end]
        if len(set(y[seen])) == 1:
            p = (y[coded] == y[seen][0]).astype(float)
        else:
            scaler = StandardScaler().fit(x[seen])
            model = LogisticRegression(C=c, max_iter=MAX_ITER, tol=TOL).fit(scaler.transform(x[seen]), y[seen])
            full = np.zeros((len(coded), classes))
            full[:, model.classes_] = model.predict_proba(scaler.transform(x[coded]))
            p = full[np.arange(len(coded)), y[coded]]
        bits += -np.log2((start * p + 1) / (start + classes)).sum()
    return float(bits)


def mean_pooled(texts: list[str], layer: int) -> np.ndarray:
    """MiniLM's hidden states of `layer`, mean-pooled over each text's tokens, by transformers alone."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from core.models.packages import packaged_minilm_folder

    folder = str(packaged_minilm_folder())
    tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    encoded = tokenizer(texts, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        states = network(**encoded, output_hidden_states=True).hidden_states[layer]
    mask = encoded["attention_mask"].unsqueeze(-1).float()
    return ((states * mask).sum(1) / mask.sum(1)).numpy()
