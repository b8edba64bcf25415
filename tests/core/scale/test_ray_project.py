"""`core project --engine ray`: a dataset folder's map fitted here and placed by Ray actors equals the map placed in
this process, row for row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import core.analysis.map.projection as projection
from core.analysis.map.projection import fit_projection, placed_here
from core.cli import main
from core.data.datasets import open_dataset
from core.data.vectors import VectorCorpus, to_parquet
from tests.extras import extra_module

ray = extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=3, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


def dataset(folder: Path) -> Path:
    """Three blobs of 8 dimensions in two files, as `embed --engine ray` leaves them (a folder per input file)."""
    rng = np.random.default_rng(0)
    vectors = np.concatenate([c * 20 + rng.normal(scale=0.5, size=(130, 8)) for c in np.eye(8)[:3]])
    for name, rows in (("a", slice(0, 200)), ("b", slice(200, 390))):
        (folder / name).mkdir(parents=True)
        texts = [f"text {i}" for i in range(390)][rows]
        (folder / name / "part.parquet").write_bytes(to_parquet(VectorCorpus(
            texts, vectors[rows].astype(np.float32), pd.DataFrame({"blob": np.repeat([0, 1, 2], 130)[rows]}))))
    return folder


@pytest.mark.parametrize("method, options", [("PCA", {}), ("UMAP", {"neighbours": 10})])
def test_the_rows_ray_places_are_where_this_process_places_them(tmp_path, monkeypatch, method, options):
    from core.scale.ray_project import place_on_ray

    monkeypatch.setattr(projection, "FIT_POINTS", 150)  # 150 fitted, 240 placed in 4 chunks of 60
    monkeypatch.setattr(projection, "CHUNK", 60)
    folder = dataset(tmp_path / "embedded")
    vectors = open_dataset(folder, [folder]).vectors
    fit = fit_projection(vectors, method=method, seed=0, **options)
    assert len(fit.to_place()) == (4 if method == "UMAP" else 7)
    here, there = placed_here(fit, vectors), place_on_ray(fit, folder)
    np.testing.assert_allclose(there.coords, here.coords, atol=1e-9)


def test_the_command_on_ray_writes_the_local_commands_map(tmp_path, monkeypatch):
    folder = dataset(tmp_path / "embedded")
    assert main(["project", "--input", str(folder), "--output", str(tmp_path / "local.csv"), "--method", "UMAP",
                 "--neighbours", "10"]) == 0
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "fresh-cache"))  # so the map is computed again
    assert main(["project", "--engine", "ray", "--input", str(folder), "--output", str(tmp_path / "ray.csv"),
                 "--method", "UMAP", "--neighbours", "10"]) == 0
    local, on_ray = pd.read_csv(tmp_path / "local.csv"), pd.read_csv(tmp_path / "ray.csv")
    pd.testing.assert_frame_equal(on_ray, local)
    assert (tmp_path / "fresh-cache" / "projections").is_dir()  # kept for the map page, as the local command does


def test_ray_maps_only_a_dataset_folder(tmp_path, capsys):
    np.save(tmp_path / "v.npy", np.ones((3, 2), np.float32))
    (tmp_path / "v.txt").write_text("a\nb\nc\n", encoding="utf-8")
    assert main(["project", "--engine", "ray", "--input", str(tmp_path / "v.npy"), str(tmp_path / "v.txt"),
                 "--output", str(tmp_path / "o.csv")]) == 1
    assert "--engine ray maps a dataset folder" in capsys.readouterr().err
