from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import TYPE_CHECKING

from core.models.catalog import CatalogEntry, catalog
from core.progress import byte_size

if TYPE_CHECKING:
    from core.models.cache import DownloadedModel


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("models", help="list the model catalog and what is available; with --downloaded, "
                                                  "the models in the Hugging Face cache")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.add_argument("--downloaded", action="store_true",
                        help="list the models downloaded into the Hugging Face cache (huggingface_hub's "
                             "scan_cache_dir): size on disk, last used, downloaded or updated, revisions")
    parser.set_defaults(run=run)


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="seconds")


def _downloaded_row(model: DownloadedModel) -> dict[str, object]:
    return {"id": model.repo_id, "size_on_disk": model.size_on_disk, "last_used": _when(model.last_accessed),
            "downloaded_or_updated": _when(model.last_modified), "revisions": list(model.revisions)}


def run_downloaded(as_json: bool) -> int:
    from core.models.cache import downloaded_models, hub_cache

    models = downloaded_models()
    if as_json:
        print(json.dumps([_downloaded_row(model) for model in models], indent=2))
    elif not models:
        print(f"No model has been downloaded into the Hugging Face cache ({hub_cache()}) yet.")
    else:
        width = max(len(model.repo_id) for model in models)
        print(f"{'id':<{width}}  {'size':>8}  {'last used':<16}  revisions")
        for model in models:
            print(f"{model.repo_id:<{width}}  {byte_size(model.size_on_disk):>8}  "
                  f"{_when(model.last_accessed)[:16].replace('T', ' ')}  {', '.join(model.revisions)}")
    return 0


def _hub_facts(entry: CatalogEntry) -> dict[str, object]:
    """A hub model's hub id, kind, size and licence, as the catalog holds them."""
    if entry.facts is None:
        return {}
    return {"repo": entry.repo, "kind": entry.kind, "parameters_m": entry.facts.parameters_m,
            "download_bytes": entry.facts.download_bytes, "licence": entry.facts.licence}


def run(args: argparse.Namespace) -> int:
    from core.models.sources import availability

    if args.downloaded:
        return run_downloaded(args.json)
    rows = [{"id": entry.id, "available": status.available, "reason": status.message} | _hub_facts(entry)
            for entry in catalog() for status in [availability(entry.id)]]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        width = max(len(str(row["id"])) for row in rows)
        for row in rows:
            print(f"{row['id']:<{width}}  {'yes' if row['available'] else 'no ':<3}  {row['reason']}")
    return 0
