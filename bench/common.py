"""What every benchmark module shares: the repository's root, a row of the table with the figures behind it, the
best of a few timed runs, and the machine's description."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

Figure = float | int | str | bool | None


@dataclass(frozen=True)
class Row:
    """A line of the table as written (rounded, with units), and the unrounded figures it was written from, by name
    and unit (`_s`, `_ms`, `_mb`, `_texts_s`), kept in the JSON file beside the table."""

    measurement: str
    ours: str
    anchor: str
    ratio: str
    raw: dict[str, Figure] = field(default_factory=dict)

    def cells(self) -> tuple[str, str, str, str]:
        return self.measurement, self.ours, self.anchor, self.ratio


def best_of(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved_best(ours: Callable[[], object], theirs: Callable[[], object], repeats: int = 2) -> tuple[float, float]:
    """The best time of each of two runs, taken in turn `repeats` times, so that a slow spell of a shared machine
    falls on both."""
    ours_time = their_time = float("inf")
    for _ in range(repeats):
        ours_time, their_time = min(ours_time, best_of(ours, 1)), min(their_time, best_of(theirs, 1))
    return ours_time, their_time


def percentiles_ms(search: Callable[[int], object], count: int) -> tuple[float, float]:
    """p50 and p95 of `search(i)` for each of `count` queries, one at a time, in ms, after one to warm up."""
    search(0)
    times = []
    for i in range(count):
        start = time.perf_counter()
        search(i)
        times.append((time.perf_counter() - start) * 1000)
    return float(np.percentile(times, 50)), float(np.percentile(times, 95))


def latency_percentiles_ms(search: Callable[[np.ndarray], object], queries: np.ndarray) -> tuple[float, float]:
    """`percentiles_ms` of searching each row of `queries` (as a batch of one)."""
    return percentiles_ms(lambda i: search(queries[i][None]), len(queries))


def machine() -> str:
    import torch

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    return (f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB RAM; Python {platform.python_version()}, "
            f"torch {torch.__version__} ({torch.get_num_threads()} threads)")
