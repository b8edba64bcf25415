from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from core.analysis.map.projection import METHODS, trust
from core.analysis.map.projection_cache import cached_project
from core.cli.options import positive_int
from core.data.corpus import NoTexts
from core.data.vectors import read_vector_files


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("project", help="map a vectors file to 2-D (PCA, t-SNE or UMAP) into a .csv or "
                                                   ".parquet of texts and x, y; kept on disk with the map's "
                                                   "projections, so neither computes it twice")
    parser.add_argument("--input", type=Path, nargs="+", required=True,
                        help="a .parquet file with a vector column (as `embed` writes), a .npy file and a .txt file "
                             "of its texts, or the Embedding Projector's vectors.tsv and metadata.tsv")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--method", choices=METHODS, default="PCA")
    parser.add_argument("--perplexity", type=float, default=30.0)
    parser.add_argument("--neighbours", type=positive_int, default=15)
    parser.add_argument("--min-dist", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(run=run)


def _read(path: Path) -> tuple[str, bytes]:
    """An input file's name and bytes. An empty file holds no texts, and so does a Parquet file of no rows (what
    `embed --engine ray` writes for an empty text file among others): NoTexts."""
    data = path.read_bytes()
    if not data or (path.suffix.lower() == ".parquet" and _parquet_rows(data) == 0):
        raise NoTexts(path)
    return path.name, data


def _parquet_rows(data: bytes) -> int | None:
    try:
        return pq.read_metadata(pa.BufferReader(data)).num_rows
    except (pa.ArrowInvalid, OSError):  # not Parquet: read_vector_files says so
        return None


def run(args: argparse.Namespace) -> int:
    corpus = read_vector_files([_read(path) for path in args.input])
    projection = cached_project(corpus.vectors, method=args.method, perplexity=args.perplexity,
                                neighbours=args.neighbours, min_dist=args.min_dist, seed=args.seed)
    table = pd.concat([pd.DataFrame({"text": corpus.texts, "x": projection.coords[:, 0],
                                     "y": projection.coords[:, 1]}), corpus.metadata.reset_index(drop=True)], axis=1)
    if args.output.suffix.lower() == ".parquet":
        table.to_parquet(args.output, index=False)
    else:
        table.to_csv(args.output, index=False)
    report = trust(corpus.vectors, projection.coords, seed=args.seed)
    trustworthiness = "—" if report.trustworthiness is None else f"{report.trustworthiness:.3f}"
    print(f"{args.method} of {len(table):,} points: neighbours kept {report.mean_overlap:.0%}, trustworthiness "
          f"{trustworthiness} (over {report.points:,} points)", file=sys.stderr)
    return 0
