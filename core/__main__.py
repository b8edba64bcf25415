"""Command line: `python -m core COMMAND …` (contract in shared/DESIGN.md)."""

from __future__ import annotations

import argparse
import sys

from core.commands import COMMANDS
from core.models import ModelUnavailable


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one readable line, exit status 2
        sys.stderr.write(f"error: {message} (see `python -m core {self.prog.split()[-1]} --help`)\n")
        raise SystemExit(2)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="core", description="Embedding Explorer without a browser.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.register(subparsers)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (ModelUnavailable, OSError, ValueError, UnicodeDecodeError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
