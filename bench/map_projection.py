"""A 1,000,000-row dataset's map (STS-B vectors plus noise, as the scale benches make them): exact PCA, and UMAP
fitted on a seeded 50,000 with every other row placed by the fitted model, in this process and on Ray actors."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import Row
from bench.scale import _write_dataset, synthetic

ROWS = 1_000_000


def bench_map_projection(rows: list[Row]) -> None:
    from core.analysis.map.projection import FIT_POINTS, fit_pca, fit_umap, placed_here
    from core.data.datasets import open_dataset
    from core.scale.ray_project import place_on_ray

    vectors, _ = synthetic(ROWS)
    with tempfile.TemporaryDirectory() as folder:
        dataset = Path(folder) / "synthetic"
        _write_dataset(dataset, vectors)
        del vectors
        mapped = open_dataset(dataset, [dataset]).vectors
        start = time.perf_counter()
        placed_here(fit_pca(mapped), mapped)
        pca_s = time.perf_counter() - start
        start = time.perf_counter()
        fit = fit_umap(mapped, seed=0)
        fit_s = time.perf_counter() - start
        start = time.perf_counter()
        here = placed_here(fit, mapped)
        here_s = time.perf_counter() - start
        start = time.perf_counter()
        there = place_on_ray(fit, dataset)
        ray_s = time.perf_counter() - start
    gap = np.abs(here.coords - there.coords).max(axis=1)
    span = float(np.ptp(here.coords, axis=0).max())
    moved = float((gap > 1e-6 * span).mean())
    what = f"Map of a {ROWS:,}-row dataset (384 dims, memory-mapped)"
    rows.append(Row(f"{what}: exact PCA (mean and covariance a chunk at a time)", f"{pca_s:.1f} s",
                    f"UMAP fitted on a seeded {FIT_POINTS:,}: {fit_s:.0f} s", "every row, no sample",
                    raw={"pca_s": pca_s, "umap_fit_s": fit_s, "rows": ROWS}))
    rows.append(Row(f"{what}: UMAP's other {ROWS - FIT_POINTS:,} rows placed by the fitted model (umap-learn's "
                    f"transform), on Ray: 2 actors on this machine ({moved:.2%} of the rows placed elsewhere than "
                    f"here, by at most {gap.max() / span:.1e} of the map's width)", f"{ray_s:.0f} s",
                    f"the same chunks placed in this process: {here_s:.0f} s", f"{here_s / ray_s:.2f}×",
                    raw={"ray_s": ray_s, "local_s": here_s, "moved_share": moved,
                         "largest_gap_of_width": float(gap.max() / span), "rows": ROWS}))
