"""Independent computations of the probes (core.analysis.probes), written out from the definitions with plain
scikit-learn and numpy: the nested cross-validation as loops of LogisticRegression over folds that keep the rows of
one text (found here by pandas) on one side of every split (scikit-learn's StratifiedKFold over the texts, each by
its first row's label), and the online code block by block. The tests compare the app's numbers with these.

The regularisation path is followed as LogisticRegressionCV follows it: on each inner fold, each C starts from the
previous C's solution, and the refit starts from the folds' mean solution at the chosen C. lbfgs stops near, not at,
the optimum of a weakly regularised (large C) fit, so the starting point can move a prediction there."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)
PORTIONS = (0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.25, 12.5, 25.0, 50.0, 100.0)


MAX_ITER, TOL = 1000, 1e-4


def text_groups(texts: Sequence[str]) -> np.ndarray:
    """Each row's text as a number: equal texts, equal numbers."""
    return pd.factorize(pd.Series(list(texts)))[0]


def grouped_splits(y: np.ndarray, groups: np.ndarray, count: int, seed: int) -> list:
    """StratifiedKFold over the texts (each labelled by its first row), each text's rows following it."""
    texts = pd.DataFrame({"group": groups, "label": y}).groupby("group", sort=True)["label"].first()
    splits = []
    for _, held in StratifiedKFold(count, shuffle=True, random_state=seed).split(texts.index, texts.to_numpy()):
        out = pd.Series(groups).isin(texts.index[held]).to_numpy()
        splits.append((np.flatnonzero(~out), np.flatnonzero(out)))
    return splits



def _path(x, y: np.ndarray, held_x, held_y: np.ndarray) -> tuple[list[float], list[np.ndarray]]:
    """Each C's accuracy on the held rows and its solution (coefficients, then intercepts), C after C."""
    model = LogisticRegression(max_iter=MAX_ITER, tol=TOL, warm_start=True)
    scores, solutions = [], []
    for c in GRID:
        model.set_params(C=c).fit(x, y)
        scores.append(float((model.predict(held_x) == held_y).mean()))
        solutions.append(np.column_stack([model.coef_, model.intercept_]))
    return scores, solutions


def fixed_c(x: np.ndarray, y: np.ndarray, groups: np.ndarray, cs: Sequence[float], *, seed: int = 0) -> list[float]:
    """Each outer fold's accuracy of the probe with that fold's C given, on standardised vectors."""
    accuracies = []
    for (train, test), c in zip(grouped_splits(y, groups, 5, seed), cs):
        scaler = StandardScaler().fit(x[train])
        model = LogisticRegression(C=c, max_iter=MAX_ITER, tol=TOL).fit(scaler.transform(x[train]), y[train])
        accuracies.append(float((model.predict(scaler.transform(x[test])) == y[test]).mean()))
    return accuracies


def nested_cv(x, y: np.ndarray, groups: np.ndarray, *, seed: int = 0,
              prepare: Callable | None = None) -> tuple[list[float], list[float]]:
    """Each outer fold's accuracy and chosen C: the fold's training rows prepared (standardised by default; `prepare`
    returns a fitted transformer), every C scored by the mean accuracy of a 3-fold split of them, the best (the first
    on a tie) refitted on all of them."""
    prepare = prepare or (lambda rows: StandardScaler().fit(rows))
    accuracies, chosen = [], []
    for train, test in grouped_splits(y, groups, 5, seed):
        assert not set(groups[train]) & set(groups[test])
        step = prepare(_take(x, train))
        inputs, labels = step.transform(_take(x, train)), y[train]
        inner = grouped_splits(labels, groups[train], 3, seed)
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


def online_bits(x: np.ndarray, y: np.ndarray, groups: np.ndarray, classes: int, *, c: float, seed: int = 0,
                portions: Sequence[float] = PORTIONS) -> float:
    """Voita & Titov's online code, block by block: the texts in a seeded order (each text's rows together), each
    block ending at a portion of the rows or, inside a text's rows, at their end; the first block by the uniform code,
    each later one by a probe trained on the rows before it, its probability p smoothed as (n p + 1) / (n + K) (the
    class frequencies where those rows hold one class)."""
    n = len(y)
    rank = np.random.default_rng(seed).permutation(groups.max() + 1)
    order = np.array([row for group in np.argsort(rank) for row in np.flatnonzero(groups == group)], dtype=int)
    ends: list[int] = []
    for portion in portions:
        end = min(n, max(1, round(portion / 100 * n)))
        while end < n and groups[order[end]] == groups[order[end - 1]]:  # to the end of the text's rows
            end += 1
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


def mean_pooled(texts: list[str], layer: int, *, untrained: bool = False) -> np.ndarray:
    """MiniLM's hidden states of `layer`, mean-pooled over each text's tokens and scaled to unit length (its pipeline's
    Normalize), by transformers alone; `untrained`: of MiniLM's architecture with random weights drawn by
    transformers from torch's seed 0."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from core.models.packages import packaged_minilm_folder

    folder = str(packaged_minilm_folder())
    tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    if untrained:
        torch.manual_seed(0)
        network = AutoModel.from_config(network.config).eval()
    encoded = tokenizer(texts, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        states = network(**encoded, output_hidden_states=True).hidden_states[layer]
    mask = encoded["attention_mask"].unsqueeze(-1).float()
    pooled = ((states * mask).sum(1) / mask.sum(1)).numpy()
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
