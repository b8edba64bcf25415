"""The command line's help as a person waits for it: `python -m core --help` (every command's parser built) and
`python -m core embed --help`, each a fresh interpreter, wall time, the median of five runs, against a goal of 0.5 s
(building a parser imports no heavy library: tests/core/cli/test_imports.py)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from bench.common import ROOT, Row

GOAL_S = 0.5
RUNS = 5


def _median_s(argv: list[str]) -> tuple[float, list[float]]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, check=True, timeout=300)
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def bench_cli_help(rows: list[Row]) -> None:
    python, _ = _median_s(["-c", "pass"])  # the interpreter's own start, which no help can beat
    for args in (["--help"], ["embed", "--help"]):
        median, times = _median_s(["-m", "core", *args])
        rows.append(Row(f"`python -m core {' '.join(args)}`, wall time, median of {RUNS} (python itself starts in "
                        f"{python:.2f} s)", f"{median:.2f} s", f"goal: under {GOAL_S} s",
                        f"{GOAL_S / median:.1f}× inside the goal" if median < GOAL_S else
                        f"{median / GOAL_S:.1f}× the goal (missed)",
                        raw={"median_s": median, "runs_s": times, "python_start_s": python, "goal_s": GOAL_S}))
