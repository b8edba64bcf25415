"""Command line: `python -m core COMMAND …` (its contract is in the README). Each command module has
`register(subparsers)`, which sets `run` on its parser."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from core.data.stores import StoreError
from core.models.catalog import ModelUnavailable

# The modules of this package that hold the commands, in the order `--help` lists them. Only the command named is
# imported. Building a parser and parsing the arguments import nothing heavy (no torch, numpy, pandas or
# scikit-learn: help and argparse's refusals come back at once); each command's run imports its own libraries
# (`project` the map's, openTSNE and scikit-learn; `evaluate` and `distill` sentence-transformers' training code),
# and `embed` needs none of the others'.
COMMANDS = ("models", "embed", "project", "evaluate", "search", "rerank", "explain", "finetune", "distill",
            "compare", "probe", "drift", "check-store")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one readable line, exit status 2
        command = " ".join(["python -m core", *self.prog.split()[1:], "--help"])
        sys.stderr.write(f"error: {message} (see `{command}`)\n")
        raise SystemExit(2)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = _Parser(prog="core", description="Embedding Explorer without a browser.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    named = argv[:1] if argv[:1] and argv[0] in COMMANDS else COMMANDS  # the command comes first; else all, for help
    for name in named:
        importlib.import_module(f"core.cli.{name.replace('-', '_')}").register(subparsers)
    args = parser.parse_args(argv)
    from core.cli.download import download_named_models  # imports the hub's client: once the arguments are good

    try:
        download_named_models(args, sys.stderr)
        return int(args.run(args) or 0)
    except StoreError as err:  # a store missing, refused or out of reach: bad input, as argparse's refusals
        sys.stderr.write(f"error: {err}\n")
        return 2
    except (ModelUnavailable, OSError, ValueError, UnicodeDecodeError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1

