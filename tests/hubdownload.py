"""`python -m tests.hubdownload REPO [--cancel]`, run by the download tests in a subprocess (huggingface_hub reads its
environment once, when imported: see tests/hubclient.py). Plans the download of REPO, asks the server's queue of
downloads for it twice (as two sessions would), watches the job's progress (cancelling it once some bytes are in,
with --cancel) and prints one JSON object: the plan, whether both requests got one job, the job's end, the progress
seen, and the folder the cache then gives for REPO (none for an incomplete snapshot)."""

from __future__ import annotations

import argparse
import json

from core.jobs import DOWNLOADS
from core.models.download import download_job, plan_download
from core.models.hub import cached_folder


def main(repo: str, cancel: bool) -> None:
    plan = plan_download(repo)
    job = download_job(repo)
    shared = download_job(repo) is job
    seen: list[tuple[int, int]] = []
    while not job.finished.wait(0.005):
        if not seen or seen[-1] != (job.done, job.total):
            seen.append((job.done, job.total))
        if cancel and job.done > 0:
            DOWNLOADS.cancel(job)
    folder = cached_folder(repo)
    print(json.dumps({"sizes": plan.sizes, "total": plan.total, "shared": shared, "state": job.state,
                      "error": job.error, "done": job.done, "seen": seen,
                      "folder": str(folder) if folder is not None else None,
                      "result": str(job.result) if job.result is not None else None}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--cancel", action="store_true")
    args = parser.parse_args()
    main(args.repo, args.cancel)
