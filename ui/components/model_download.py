"""A hub model's download while the pages keep working (the sidebar's model, or a reranker): its size, then bytes
done of the total and the rate, and Cancel; the app reruns when it ends (the model loads from the cache) or gives up on
the model with the reason when it fails or is cancelled. The download is the server's job (core.models.download),
shared with every session that asks for the same model."""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from core.jobs import DOWNLOADS, Job
from core.progress import byte_size, bytes_progress_text


def download_status(job: Job, repo: str, meanwhile: str | None, give_up: Callable[[str], None], *,
                    key: str = "model-download") -> None:
    """A live line for `job`, the download of `repo` (saying that the pages use `meanwhile` until it is done);
    `give_up(reason)` when it fails or is cancelled."""

    @st.fragment(run_every=1.0)
    def watch() -> None:
        if job.state == "failed":
            give_up(str(job.failure))
            st.rerun(scope="app")
        if job.state == "cancelled":
            give_up(f"The download of '{repo}' was cancelled.")
            st.rerun(scope="app")
        if job.state == "done":
            st.rerun(scope="app")
        with st.container(key=key):  # the browser tests watch the sidebar's
            place = DOWNLOADS.place(job)
            if place:
                st.info(f"'{repo}' downloads once the download ahead of it is done (number {place} in the queue).")
            elif not job.total:
                st.info(f"Asking the hub for the files of '{repo}'…")
            else:
                elapsed = time.monotonic() - job.started
                st.progress(job.done / job.total, text=f"Downloading {repo} ({byte_size(job.total)}): "
                                                       f"{bytes_progress_text(job.done, job.total, elapsed)}")
            if job.cancel_requested.is_set():
                st.caption("Cancelling…")
            elif st.button("Cancel download", key=f"{key}-cancel",
                           help="Stops it for every session waiting on it; nothing half-downloaded is kept to load."):
                DOWNLOADS.cancel(job)
                st.caption("Cancelling…")
            if meanwhile is not None:
                st.caption(f"Meanwhile the pages use {meanwhile}.")

    watch()
