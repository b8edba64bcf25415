from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from core.cli.options import add_model_options, add_prompt_options, chosen_prompt, positive_int
from core.data.vectors import VectorCorpus, to_parquet
from core.encoding.encoder import encode
from core.models.loading import load_model


def read_lines(path: Path) -> list[str]:
    """Every line is a text, empty ones included; a final newline ends the last line."""
    text = path.read_text(encoding="utf-8")
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("embed", help="embed a file of texts (one per line) into a .npy array, or a "
                                                 ".parquet table of texts and vectors")
    add_model_options(parser)
    add_prompt_options(parser, roles=False)
    parser.add_argument("--normalize", action="store_true")
    parser.add_argument("--max-length", type=positive_int, default=None)
    parser.add_argument("--batch-size", type=positive_int, default=32)
    parser.add_argument("--input", type=Path, required=True)
    parser.add_argument("--output", type=Path, required=True)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        texts = read_lines(args.input)
    except UnicodeDecodeError as err:
        raise ValueError(f"{args.input} is not UTF-8 text ({err.reason} at byte {err.start}).") from err
    model = load_model(args.model, args.device)
    result = encode(model, texts, pooling=args.pooling, layer=args.layer, normalize=args.normalize,
                    max_length=args.max_length, prompt=chosen_prompt(model.pipeline, args, "document"),
                    truncate_dim=args.truncate_dim, batch_size=args.batch_size)
    if args.output.suffix.lower() == ".parquet":  # the layout Embedding Atlas and the map's import read
        args.output.write_bytes(to_parquet(VectorCorpus(texts, result.vectors, pd.DataFrame(index=range(len(texts))))))
    else:
        np.save(args.output, result.vectors)
    for notice in result.notices + ([result.truncation_notice] if result.truncated else []):
        print(f"note: {notice}", file=sys.stderr)
    return 0
