"""Two sets compared (core.analysis.set_drift): MMD² with 1,000 permutations on 5,000 + 5,000 STS-B sentence vectors
(all-MiniLM-L6-v2), against alibi-detect's MMDDrift (PyTorch backend, the same Gaussian kernel width and number of
permutations) on the same vectors, for a drifted pair (news against captions) and a null pair (two random halves of
both together); p-values must agree within the permutation noise. alibi-detect comes from `make bench-extra`."""

from __future__ import annotations

import time

import numpy as np

from bench.common import Row
from core.analysis.set_drift import PERMUTATIONS, mmd_test
from core.analysis.statistics import p_text
from core.data.stsb import stsb_genres
from core.encoding.encoder import encode
from core.models.loading import load_model

SIZE = 5000


def _alibi(a: np.ndarray, b: np.ndarray, sigma: float) -> tuple[float, float]:
    """alibi-detect's p-value and its seconds."""
    from alibi_detect.cd import MMDDrift

    start = time.perf_counter()
    detector = MMDDrift(a.astype(np.float32), backend="pytorch", sigma=np.array([sigma], dtype=np.float32),
                        n_permutations=PERMUTATIONS, device="cpu")
    found = detector.predict(b.astype(np.float32))["data"]
    return float(found["p_val"]), time.perf_counter() - start


def _pairs() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """5,000 news against 5,000 captions (drifted), and two sets of 5,000 drawn at random from all of them (the
    null)."""
    genres = stsb_genres()
    rng = np.random.default_rng(0)
    news, captions = (rng.permutation(genres.loc[genres["genre"] == genre, "text"].to_numpy())[:SIZE]
                      for genre in ("news", "captions"))
    model = load_model("all-MiniLM-L6-v2", "cpu")
    vectors = encode(model, [*news, *captions]).vectors.astype(np.float64)
    mixed = rng.permutation(len(vectors))
    return {"news against captions": (vectors[:SIZE], vectors[SIZE:]),
            "two random halves of both (the null)": (vectors[mixed[:SIZE]], vectors[mixed[SIZE:]])}


def bench_set_drift(rows: list[Row]) -> None:
    for name, (a, b) in _pairs().items():
        start = time.perf_counter()
        ours = mmd_test(a, b)
        ours_s = time.perf_counter() - start
        assert ours.sigma is not None
        p_alibi, alibi_s = _alibi(a, b, ours.sigma)
        noise = 3 * np.sqrt(max(ours.p_value * (1 - ours.p_value), 1 / PERMUTATIONS) / PERMUTATIONS)
        agree = abs(ours.p_value - p_alibi) <= noise
        rows.append(Row(f"MMD² with {PERMUTATIONS:,} permutations, {len(a):,} + {len(b):,} STS-B sentence vectors "
                        f"(384 dims), {name}: {p_text(ours.p_value)} (alibi-detect {p_text(p_alibi)}; "
                        f"{'within' if agree else 'outside'} the permutation noise, ±{noise:.3f})",
                        f"{ours_s:.1f} s", f"alibi-detect's MMDDrift (PyTorch): {alibi_s:.1f} s",
                        f"{alibi_s / ours_s:.1f}× (goal: ≥ 1×)",
                        raw={"texts": len(a) + len(b), "ours_s": ours_s, "alibi_s": alibi_s, "p": ours.p_value,
                             "alibi_p": p_alibi, "noise": float(noise), "agree": bool(agree)}))
