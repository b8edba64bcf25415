from __future__ import annotations

import argparse
import json

from core.models.catalog import catalog
from core.models.sources import availability


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("models", help="list the model catalog and what is available")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rows = [{"id": entry.id, "available": status.available, "reason": status.message}
            for entry in catalog() for status in [availability(entry.id)]]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        width = max(len(str(row["id"])) for row in rows)
        for row in rows:
            print(f"{row['id']:<{width}}  {'yes' if row['available'] else 'no ':<3}  {row['reason']}")
    return 0
