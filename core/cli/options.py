"""Arguments that several commands share, parsed one way."""

from __future__ import annotations

import argparse

from core.settings import DEVICES, POOLINGS


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def add_model_options(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    parser.add_argument("--model", required=required, help="catalog id, Hugging Face id or local folder")
    parser.add_argument("--pooling", choices=POOLINGS, default="default" if not required else None,
                        required=required)
    parser.add_argument("--layer", type=int, default=None, help="0 is the embedding layer; default the last")
    parser.add_argument("--device", default="auto", choices=DEVICES)
