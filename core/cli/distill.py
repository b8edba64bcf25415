"""`python -m core distill --model ID [--pca-dims N] [--name NAME]`: a static model distilled with model2vec, saved
and listed by `python -m core models`; prints one JSON object (id, path, seconds)."""

from __future__ import annotations

import argparse
import json

from core.cli.options import positive_int
from core.settings import DEVICES
from core.training.options import DEFAULT_PCA_DIMS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("distill", help="distil a static model (model2vec) from a transformer model")
    parser.add_argument("--model", required=True, help="catalog id, Hugging Face id or local folder")
    parser.add_argument("--pca-dims", type=positive_int, default=DEFAULT_PCA_DIMS,
                        help=f"dimensions PCA keeps (default {DEFAULT_PCA_DIMS})")
    parser.add_argument("--name", default=None, help="the new model's name (default MODEL-static)")
    parser.add_argument("--device", default="auto", choices=DEVICES)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.models.loading import load_model
    from core.training.distill import distill_static

    made = distill_static(load_model(args.model, args.device), pca_dims=args.pca_dims, name=args.name)
    print(json.dumps({"id": made.id, "path": str(made.path), "seconds": round(made.seconds, 1)}))
    return 0
