"""Benchmarks as ratios against an anchor measured in the same run: `python -m bench.run --output bench/RESULTS.md`.

Each figure compares our code with a reference on the same input, interleaving the two and keeping each
side's best of a few repeats, so the noise of a shared machine mostly cancels. The table is written to `--output`,
and every row's unrounded figures beside it as JSON (RESULTS.json for RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from bench.agreement import bench_layer_cka, bench_overlap_scale
from bench.checks import bench_checks
from bench.cli import bench_cli_help
from bench.common import ROOT, Row, machine
from bench.encoding import bench_decoder, bench_encoding
from bench.explanation import bench_explanation
from bench.images import bench_images
from bench.late import bench_late
from bench.map_canvas import bench_map_canvas
from bench.map_file import bench_map_file
from bench.map_projection import bench_map_projection
from bench.maps import bench_map_scale, bench_tsne
from bench.memory import bench_memory
from bench.notebook_map import bench_notebook_map
from bench.pages import bench_classroom, bench_first_contact, bench_pages
from bench.picture_map import bench_picture_map
from bench.probes import bench_probes
from bench.rerank import bench_rerank
from bench.rerank_explanation import bench_rerank_explanation
from bench.scale import bench_dataset_sessions, bench_index, bench_ray
from bench.search import bench_search, bench_sts
from bench.set_drift import bench_set_drift
from bench.sparse import bench_sparse
from bench.stores import bench_stores

SECTIONS = {"encoding": bench_encoding, "decoder": bench_decoder, "search": bench_search, "sts": bench_sts,
            "first_contact": bench_first_contact, "classroom": bench_classroom, "pages": bench_pages,
            "tsne": bench_tsne, "map_scale": bench_map_scale, "map_canvas": bench_map_canvas,
            "map_file": bench_map_file,
            "map_projection": bench_map_projection, "notebook_map": bench_notebook_map,
            "memory": bench_memory, "explanation": bench_explanation,
            "checks": bench_checks, "ray": bench_ray, "index": bench_index,
            "dataset_sessions": bench_dataset_sessions, "sparse": bench_sparse, "rerank": bench_rerank,
            "rerank_explanation": bench_rerank_explanation,
            "late": bench_late, "layer_cka": bench_layer_cka, "overlap_scale": bench_overlap_scale,
            "cli_help": bench_cli_help, "probes": bench_probes, "set_drift": bench_set_drift, "images": bench_images,
            "picture_map": bench_picture_map, "stores": bench_stores}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "RESULTS.md")
    parser.add_argument("--only", choices=list(SECTIONS), action="append")
    args = parser.parse_args()
    rows: list[Row] = []
    raw: list[dict[str, object]] = []
    seconds: dict[str, float] = {}
    for name in args.only or SECTIONS:
        print(f"bench: {name}…", file=sys.stderr, flush=True)
        before, start = len(rows), time.perf_counter()
        try:
            SECTIONS[name](rows)
        except Exception as err:  # one broken section must not lose the others' figures
            rows.append(Row(f"{name} (section failed)", f"{type(err).__name__}: {err}"[:200], "", ""))
        raw += [{"section": name, **asdict(row)} for row in rows[before:]]
        seconds[name] = round(time.perf_counter() - start, 1)
        print(f"bench: {name} took {seconds[name]:.0f} s", file=sys.stderr, flush=True)
    table = ["| measurement | ours | anchor (same run) | ratio |", "|---|---|---|---|",
             *(f"| {' | '.join(row.cells())} |" for row in rows)]
    run = {"machine": machine(), "date": time.strftime("%Y-%m-%d")}
    text = f"Machine: {run['machine']}. Run on {run['date']}.\n\n" + "\n".join(table) + "\n"
    args.output.write_text(text, encoding="utf-8")
    raw_run = {**run, "section_seconds": seconds, "rows": raw}
    args.output.with_suffix(".json").write_text(json.dumps(raw_run, indent=1, ensure_ascii=False) + "\n",
                                                encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
