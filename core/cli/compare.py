"""`python -m core compare …`: how far two configurations agree on the same texts (linear CKA, neighbour overlap@k,
RSA, the Procrustes residual), as one JSON object; with --layers, CKA of every layer of A against every layer of B.
Each side takes `embed`'s options, suffixed -a or -b, or the vectors `embed` wrote (a .npy file, a dataset folder)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.options import (
    add_model_options,
    add_prompt_options,
    add_revision_option,
    add_vector_options,
    positive_int,
)
from core.settings import DEVICES

if TYPE_CHECKING:
    import numpy as np

SIDES = ("a", "b")
SIDE_OPTIONS = ("model", "pooling", "layer", "revision", "prompt_name", "prompt", "truncate_dim", "normalize",
                "max_length")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("compare", help="how far two models (or two layers, poolings, prompts) agree on "
                                                   "the same texts: CKA, neighbour overlap, RSA, Procrustes")
    for side in SIDES:
        add_model_options(parser, required=False, side=side)
        add_revision_option(parser, side=side)
        add_prompt_options(parser, roles=False, side=side)
        add_vector_options(parser, side=side)
    parser.add_argument("--device", default="auto", choices=DEVICES, help="where both models run")
    for side in SIDES:
        parser.add_argument(f"--vectors-{side}", type=Path, default=None,
                            help=f"instead of --model-{side}: vectors made elsewhere, a .npy file (row i is text i) or "
                                 "a dataset folder of `embed --engine ray` (compared with another, lined up by their "
                                 "texts)")
    parser.add_argument("--input", type=Path, default=None, help="UTF-8, one text a line (every line is a text, as "
                                                                 "embed reads it), embedded by the models")
    parser.add_argument("--input-b", type=Path, default=None, help="B's texts where they differ from A's (a "
                                                                   "translation, say): line i is text i's "
                                                                   "counterpart, so the files have as many lines")
    parser.add_argument("--k", type=positive_int, default=10, help="neighbours per text for the overlap (default 10)")
    parser.add_argument("--layers", action="store_true", help="also CKA of every layer of A (rows) against every "
                                                              "layer of B (columns)")
    parser.add_argument("--batch-size", type=positive_int, default=32)
    parser.add_argument("--json", action="store_true", help="one JSON object (the default prints one line a measure)")
    parser.set_defaults(run=run, parser=parser)


def side_args(args: argparse.Namespace, side: str) -> argparse.Namespace:
    """One side's options under `embed`'s names (its texts are embedded as documents, as `embed` does by default)."""
    return argparse.Namespace(**{name: getattr(args, f"{name}_{side}") for name in SIDE_OPTIONS},
                              device=args.device, role="document")


def read_texts(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """A's and B's texts, refused in one sentence when they differ in number or are too few for overlap@k."""
    from core.cli.embed import read_lines

    texts = read_lines(args.input)
    b_texts = texts if args.input_b is None else read_lines(args.input_b)
    if len(b_texts) != len(texts):
        raise ValueError(f"{args.input} holds {len(texts):,} texts and {args.input_b} {len(b_texts):,}; line i of "
                         "each is compared as the same text, so give two files with as many lines.")
    if len(texts) < args.k + 1:
        raise ValueError(f"{args.input} holds {len(texts):,} text(s), and overlap@{args.k} needs at least "
                         f"{args.k + 1} (each text's {args.k} nearest others); add texts or give a smaller --k.")
    return texts, b_texts


def _number(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def _plain(record: dict) -> str:
    lines = []
    for key, value in record.items():
        if key == "cka_layers":
            lines.append("cka_layers (A's layers as rows, B's as columns):")
            lines += ["  " + " ".join("  nan" if v is None else f"{v:.3f}" for v in row) for row in value]
        else:
            lines.append(f"{key} {value if not isinstance(value, float) else f'{value:.4f}'}")
    return "\n".join(lines)


def _checked_sides(args: argparse.Namespace) -> None:
    """Each side is a model or vectors made elsewhere, never both (argparse's exit status 2 otherwise)."""
    for side in SIDES:
        model, vectors = getattr(args, f"model_{side}"), getattr(args, f"vectors_{side}")
        if (model is None) == (vectors is None):
            args.parser.error(f"give --model-{side} or --vectors-{side} ({'not both' if model else 'one of them'}): "
                              f"configuration {side.upper()} to compare")
    if args.layers and (args.vectors_a or args.vectors_b):
        args.parser.error("--layers reads every layer of two models: give --model-a and --model-b")
    if (args.model_a or args.model_b) and args.input is None:
        args.parser.error("give --input: the texts the models embed")


def _stored(path: Path) -> np.ndarray:
    """A .npy file's rows, memory-mapped."""
    import numpy as np

    if path.suffix.lower() != ".npy" or not path.is_file():
        raise ValueError(f"{path} is neither a .npy file nor a dataset folder; give the vectors `embed` wrote.")
    vectors = np.load(path, mmap_mode="r")
    if vectors.ndim != 2:
        raise ValueError(f"{path} holds an array of shape {vectors.shape}, not one vector a row.")
    return vectors


def _vectors_made_elsewhere(args: argparse.Namespace) -> dict[str, np.ndarray]:
    """The --vectors sides: two dataset folders lined up by their texts, or .npy files row by row."""
    from core.data.datasets import open_dataset
    from core.evaluation.compared_models import aligned_datasets

    paths = {side: getattr(args, f"vectors_{side}") for side in SIDES if getattr(args, f"vectors_{side}")}
    folders = [path for path in paths.values() if path.is_dir()]
    if folders and len(folders) < 2:
        raise ValueError(f"{folders[0]} is a dataset folder: compare it with another dataset folder of the same texts "
                         "(their texts line the rows up), given as the other side's --vectors.")
    if folders:
        a, b = aligned_datasets(*(open_dataset(folder, [folder]) for folder in folders))
        return {"a": a, "b": b}
    return {side: _stored(path) for side, path in paths.items()}


def run(args: argparse.Namespace) -> int:
    from core.analysis.agreement import RSA_TEXTS, agreement
    from core.cli.embed import settings_of
    from core.cli.progress_line import ProgressLine
    from core.encoding.encoder import encode_with
    from core.evaluation.compared_models import dense_only, layer_cka
    from core.models.loading import LoadedModel, load_model

    _checked_sides(args)
    texts, b_texts = read_texts(args) if args.input is not None else ([], [])
    vectors = _vectors_made_elsewhere(args)
    rows = [len(vectors[side]) if side in vectors else len(texts) for side in SIDES]
    if rows[0] != rows[1]:
        raise ValueError(f"A has {rows[0]:,} rows and B {rows[1]:,}; row i of each is compared as the same text, so "
                         "give vectors of as many texts.")
    if rows[0] < args.k + 1:
        raise ValueError(f"The vectors are of {rows[0]:,} text(s), and overlap@{args.k} needs at least {args.k + 1} "
                         f"(each text's {args.k} nearest others); add texts or give a smaller --k.")
    loaded: dict[tuple[str, str | None], LoadedModel] = {}
    sides = {}
    for side in SIDES:
        if side in vectors:
            continue
        options = side_args(args, side)
        key = (options.model, options.revision)
        if key not in loaded:
            loaded[key] = load_model(options.model, args.device, options.revision)
        model = loaded[key]
        dense_only(model)
        sides[side] = (model, settings_of(model, options))
    line = ProgressLine(sys.stderr)
    try:
        # every layer first: its one forward pass fills the memo that the chosen layer's vectors are then read from
        layers = layer_cka(sides["a"], sides["b"], texts, line.update, b_texts=b_texts) if args.layers else None
        for side, side_texts in zip(SIDES, (texts, b_texts)):
            if side in sides:
                model, settings = sides[side]
                vectors[side] = encode_with(model, side_texts, settings, batch_size=args.batch_size,
                                            progress=line.update).vectors
        found = agreement(vectors["a"], vectors["b"], k=args.k, progress=line.update)
    finally:
        line.close()
    record: dict[str, object] = dict(found.record())
    if found.overlap.recall is not None:
        record["overlap_index"] = {"kind": "hnsw", "recall@10": list(found.overlap.recall)}
    if found.rsa_texts < found.texts:
        record["rsa_texts"] = RSA_TEXTS
    if layers is not None:
        record["cka_layers"] = [[_number(v) for v in row] for row in layers]
    print(json.dumps(record) if args.json else _plain(record))
    return 0
