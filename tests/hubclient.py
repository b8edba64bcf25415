"""`python -m tests.hubclient MODEL_ID [REVISION]`, run by the hub tests in a subprocess: huggingface_hub reads
HF_ENDPOINT, HF_HOME and HF_HUB_OFFLINE once, when it is imported, so a process of its own is the only reliable way to
point it at a test's server, cache and switches. Resolves the id (at the revision) as the app does (availability, then
the folder: from the cache or downloaded) and prints one JSON object: the folder, or the sentence that refused it, the
seconds it took (huggingface_hub's modules, which the app imports on first use, are imported before the clock
starts: on a busy machine their import took longer than the hub's answer), and where the folder came from on the hub
as the pages show it (core.models.hub_origin)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

from core.models.catalog import ModelUnavailable
from core.models.hub_origin import hub_origin
from core.models.sources import resolve


def main(model_id: str, revision: str | None) -> None:
    import huggingface_hub.hf_api  # noqa: F401  (see above)

    started = time.perf_counter()
    try:
        folder, message = str(resolve(model_id, revision).folder), ""
    except ModelUnavailable as err:
        folder, message = "", str(err)
    seconds = time.perf_counter() - started
    origin = hub_origin(Path(folder)) if folder else None
    print(json.dumps({"folder": folder, "message": message, "seconds": seconds,
                      "origin": dataclasses.asdict(origin) if origin is not None else None}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
