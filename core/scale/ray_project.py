"""`python -m core project --engine ray`: a dataset folder's map with its placing on Ray. The projection is fitted
in this process (exact PCA over every row, t-SNE or UMAP on a seeded sample); actors then place the other rows, one
chunk of `Fit.to_place` per call, each reading its rows from the dataset folder, so the rows each place are the ones
this machine would place alone, at the coordinates this machine gives them."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from core.analysis.map.projection import Fit, Projection
from core.data.datasets import open_dataset
from core.scale.cluster import Cluster, connect, import_ray


class Placer:
    """One per actor: the dataset's vectors opened once (memory-mapped) and the fitted projection, given as its
    object in Ray's store (a UMAP fitted on 50,000 rows is 180 MB: inside the function, Ray warned of its size)."""

    def __init__(self, fit: Any, folder: str) -> None:  # a ray.ObjectRef of a Fit
        # A copy of its own: Ray hands every actor the same arrays from its shared memory, and umap-learn's neighbour
        # search (pynndescent) marks the nodes it visits in one of them, `_visited`, in place (numba writes through
        # its read-only flag). Two actors searching at once marked each other's nodes: up to every row of a chunk was
        # placed elsewhere than by this process, differently from run to run.
        self.fit = copy.deepcopy(import_ray().get(fit))
        self.chunks = self.fit.to_place()
        self.vectors = open_dataset(Path(folder), [Path(folder)]).vectors

    def __call__(self, batch: pa.Table) -> pa.Table:
        parts = []
        for chunk in batch.column("chunk").to_pylist():
            rows = self.chunks[chunk]
            xy = self.fit.place(self.vectors[rows])
            parts.append(pa.table({"row": rows, "x": xy[:, 0], "y": xy[:, 1]}))
        return pa.concat_tables(parts)


def place_on_ray(fit: Fit, folder: Path, cluster: Cluster = Cluster()) -> Projection:
    """Every row of the dataset in `folder` on `fit`'s map, placed by Ray actors (on the cluster at
    `cluster.address`, which must reach `folder` by the same path, or started here)."""
    chunks = len(fit.to_place())
    if not chunks:
        return fit.projection(())
    ray = import_ray()
    started = connect(ray, cluster)
    try:
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False
        context.print_on_execution_start = False
        placed = ray.data.from_items([{"chunk": i} for i in range(chunks)], override_num_blocks=chunks).map_batches(
            Placer, fn_constructor_kwargs={"fit": ray.put(fit), "folder": str(folder.resolve())}, batch_size=1,
            batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=min(cluster.workers, chunks)),
            num_cpus=cluster.cpus_per_worker)
        found = [(np.asarray(t.column("row")), np.column_stack([np.asarray(t.column("x")), np.asarray(t.column("y"))]))
                 for t in placed.iter_batches(batch_format="pyarrow", batch_size=None)]
    finally:
        if started:
            ray.shutdown()
    return fit.projection(found)
