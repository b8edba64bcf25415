"""A UMAP fitted on more than 4,096 points (umap-learn then searches neighbours with pynndescent, which writes a
scratch array of the fit in place) is placed on Ray where this process places it: actors sharing the fit through
Ray's object store placed rows elsewhere, differently from run to run. Fitted before Ray starts: numba compiling
pynndescent after `ray.init` in the same process fails to type its `print`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import core.analysis.map.projection as projection
from core.analysis.map.projection import fit_projection, placed_here
from core.data.datasets import open_dataset
from core.data.vectors import VectorCorpus, to_parquet
from tests.extras import extra_module

ray = extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


def test_a_umap_with_approximate_neighbour_search_is_placed_on_ray_where_this_process_places_it(tmp_path, monkeypatch):
    from core.scale.ray_project import place_on_ray

    monkeypatch.setattr(projection, "FIT_POINTS", 4_200)  # above 4,096: pynndescent's neighbour search
    monkeypatch.setattr(projection, "CHUNK", 450)  # 1,800 placed in 4 chunks, by two actors at once
    rng = np.random.default_rng(1)
    vectors = np.concatenate([c * 3 + rng.normal(size=(1_500, 16)) for c in np.eye(16)[:4]]).astype(np.float32)
    folder = tmp_path / "embedded"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "part.parquet").write_bytes(to_parquet(VectorCorpus(
        [f"text {i}" for i in range(len(vectors))], vectors, pd.DataFrame({"blob": np.repeat(np.arange(4), 1_500)}))))
    mapped = open_dataset(folder, [folder]).vectors
    fit = fit_projection(mapped, method="UMAP", seed=0, neighbours=10)
    here = placed_here(fit, mapped)
    assert not ray.is_initialized()
    # Twice: without each actor's own copy of the fit, a first run here placed every row right and the second moved
    # 39 % of them (11-27), so one run would let that break through.
    for _ in range(2):
        np.testing.assert_array_equal(place_on_ray(fit, folder).coords, here.coords)
