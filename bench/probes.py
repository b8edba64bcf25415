"""What each layer knows, at the size the labels issue names: 2,000 STS-B sentences labelled by genre (3 classes),
the 7 layers of all-MiniLM-L6-v2. The probes (with their labels-shuffled chance line and online code) against a plain
loop of
scikit-learn's LogisticRegressionCV on the same vectors, with equal accuracies; the whole view, encoding included;
and the online code's 11 portions against one probe."""

from __future__ import annotations

import time

import numpy as np

from bench.common import Row, interleaved_best

TEXTS = 2_000
GOAL_S = 30.0


def _plain_loop(by_layer: dict[int, np.ndarray], codes: np.ndarray, groups: np.ndarray) -> dict[int, float]:
    """Each layer's mean accuracy over the same outer folds, by LogisticRegressionCV in a loop, one layer after the
    other."""
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from core.analysis.probes import GRID, MAX_ITER, TOL, outer_folds
    from core.analysis.statistics import grouped_folds

    found = {}
    for layer, vectors in by_layer.items():
        accuracies = []
        for train, test in outer_folds(codes, groups):
            inner = grouped_folds(codes[train], groups[train], 3)
            model = make_pipeline(StandardScaler(), LogisticRegressionCV(
                Cs=list(GRID), l1_ratios=(0.0,), cv=inner,
                scoring="accuracy", max_iter=MAX_ITER, tol=TOL, use_legacy_attributes=False))
            accuracies.append(float((model.fit(vectors[train], codes[train]).predict(vectors[test])
                                     == codes[test]).mean()))
        found[layer] = float(np.mean(accuracies))
    return found


def bench_probes(rows: list[Row]) -> None:
    import warnings

    from joblib import delayed
    from sklearn.exceptions import ConvergenceWarning
    from threadpoolctl import threadpool_limits

    from core.analysis.probes import checked_labels, cross_validate, online_codelength, probe_layer
    from core.data.stsb import stsb_sample
    from core.evaluation.probing import probe_texts
    from core.kinds import kind_of
    from core.models.loading import load_model
    from core.settings import Settings
    from core.threads import WORKERS, shared_out

    warnings.filterwarnings("ignore", category=ConvergenceWarning)  # the plain loop's, as the app's are
    model = load_model("all-MiniLM-L6-v2", "cpu")
    sample = stsb_sample(TEXTS, seed=1)
    texts, genres = sample["text"].tolist(), sample["genre"].tolist()
    start = time.perf_counter()
    probe_texts(model, texts, genres, Settings(model_id=model.model_id))
    whole = time.perf_counter() - start
    rows.append(Row(f"What each layer knows: {TEXTS:,} STS-B sentences' genre (3 classes) probed at the 7 layers of "
                    "all-MiniLM-L6-v2 and of its architecture untrained (one encoding pass each, then each layer's "
                    f"probes, chance line and online code on {WORKERS} threads, and the TF-IDF probe)",
                    f"{whole:.1f} s", f"goal: under {GOAL_S:.0f} s",
                    "within the goal" if whole < GOAL_S else "over the goal", {"whole_s": round(whole, 2)}))

    labels = checked_labels(genres, texts)
    by_layer = kind_of(model).layered_vectors(model, texts, Settings(model_id=model.model_id))
    found: dict[int, float] = {}

    def ours() -> None:
        done = shared_out([delayed(probe_layer)(layer, vectors, labels) for layer, vectors in by_layer.items()])
        found.update({result.layer: float(result.probe.accuracy.mean()) for result in done})

    plain: dict[int, float] = {}
    with threadpool_limits(1, user_api="blas"):  # as the app runs probes (on two BLAS threads the loop took 79 s)
        ours_s, plain_s = interleaved_best(
            ours, lambda: plain.update(_plain_loop(by_layer, labels.codes, labels.groups)), repeats=1)
    equal = all(abs(found[layer] - plain[layer]) < 1e-12 for layer in by_layer)
    rows.append(Row(f"Probes of the 7 layers over the same {TEXTS:,} vectors each, BLAS on one thread in both "
                    "(nested cross-validation; ours also runs each layer's chance line and online code)",
                    f"{ours_s:.1f} s",
                    f"a plain loop of LogisticRegressionCV, the probe alone: {plain_s:.1f} s "
                    f"({'equal' if equal else 'different'} accuracies)",
                    f"{plain_s / ours_s:.2f}× (goal: 1.0× or more, equal accuracies)",
                    {"ours_s": round(ours_s, 2), "plain_s": round(plain_s, 2), "equal_accuracies": equal}))

    vectors = by_layer[3]
    probe_s = mdl_s = float("inf")
    for _ in range(2):
        with threadpool_limits(1, user_api="blas"):
            start = time.perf_counter()
            probe = cross_validate(vectors, labels.codes, labels.groups, labels.count)
            probe_s = min(probe_s, time.perf_counter() - start)
            start = time.perf_counter()
            online_codelength(vectors, labels.codes, labels.groups, labels.count, c=probe.usual_c)
            mdl_s = min(mdl_s, time.perf_counter() - start)
    rows.append(Row("Online codelength of layer 3 (11 portions of a seeded order; BLAS on one thread in both)",
                    f"{mdl_s:.2f} s",
                    f"one probe of the layer (nested cross-validation): {probe_s:.2f} s",
                    f"{mdl_s / probe_s:.2f}× one probe (goal: under 2×)",
                    {"mdl_s": round(mdl_s, 3), "probe_s": round(probe_s, 3)}))
