"""`python -m core check-store …`: does a stored index still match its model? A seeded sample of its texts is
embedded again and each stored vector set against the fresh one (core.analysis.index_check)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.options import add_embedding_options, positive_int, source

if TYPE_CHECKING:
    from core.data.vectors import VectorCorpus


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("check-store", help="does a stored index still match its model: a seeded sample "
                                                       "of its texts embedded again, each stored vector against the "
                                                       "fresh one")
    add_embedding_options(parser)  # as `embed` wrote them
    parser.add_argument("--input", type=source, required=True,
                        help="the stored texts and vectors: a store URI (lancedb://FOLDER/TABLE, chroma://…, "
                             "qdrant://…, postgresql://…?table=T; `make stores`) or a .parquet with a text column and "
                             "a vector column (as `embed --output x.parquet` writes)")
    parser.add_argument("--sample", type=positive_int, default=None, help="distinct texts embedded again (500)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.analysis.index_check import SAMPLE
    from core.cli.embed import settings_of
    from core.data.corpus import CorpusError
    from core.data.rows import ROW_ID
    from core.evaluation.index_check import check_index
    from core.models.loading import NotAnEmbedder, load_model

    try:
        stored = _stored(args.input)
        model = load_model(args.model, args.device, args.revision)
        settings = settings_of(model, args)
        check = check_index(model, stored.texts, stored.vectors, settings, sample=args.sample or SAMPLE)
    except (ValueError, CorpusError, NotAnEmbedder) as err:  # the file, the model's kind, the options: one sentence
        sys.stderr.write(f"error: {err}\n")
        return 2
    row_ids = stored.metadata[ROW_ID].tolist() if ROW_ID in stored.metadata.columns else None
    record = check.record(model.model_id, row_ids, stored.texts)
    if args.json:
        print(json.dumps(record))
        return 0
    print(record["message"])
    if check.skipped:
        print(f"({check.skipped:,} rows with a blank or repeated text were not sampled.)")
    cosine = ("n/a" if record["median_cosine"] is None
              else f"median {record['median_cosine']:.4f}, 5th percentile {record['p5_cosine']:.4f}")
    print(f"sample {check.sample:,} · agree to 1e-3 {check.agree_share:.1%} · cosine to the fresh vectors {cosine} · "
          f"neighbours' overlap@{check.k} {check.overlap_at_10:.3f}")
    for row in record["rows_unlike"]:
        cosine = "" if row["cosine"] is None else f"{row['cosine']:.4f} "
        print(f"  row {row['row']:>7} {cosine}{row['looks']:<14} {row['text'][:80]}")
    return 0


def _stored(given: Path | str) -> VectorCorpus:
    from core.data.stores.reading import read_store
    from core.data.vectors import from_parquet

    if isinstance(given, str):
        return read_store(given)
    if given.suffix.lower() != ".parquet":
        raise ValueError(f"{given} is not a .parquet file or a store URI; give the texts and vectors as Parquet, with "
                         "a text column and a vector column (as `embed --output x.parquet` writes), or a store.")
    if not given.is_file():
        raise ValueError(f"{given} does not exist; give a .parquet file of texts and vectors, or a store URI.")
    return from_parquet(given.name, given.read_bytes())
