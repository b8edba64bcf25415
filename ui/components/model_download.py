"""A hub model's download while the pages keep working: its size, then bytes done of the total and the rate, and
Cancel; the app reruns when it ends (the model loads from the cache) or gives up on the model with the reason when it
fails or is cancelled. The download is the server's job (core.models.download), shared with every session that asks
for the same model. The sidebar's model downloads as soon as it is chosen; any other model a page loads by id (a
compare mode's model B, a hybrid's partner, an evaluation's configuration, a reranker) downloads only when its
Download button is pressed, the page drawing the rest of itself meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from core.jobs import DOWNLOADS, Job
from core.models.catalog import find_entry
from core.models.download import download_job
from core.models.sources import pending_download
from core.progress import byte_size, bytes_progress_text


def download_status(job: Job, repo: str, meanwhile: str | None, give_up: Callable[[str], None], *,
                    key: str = "model-download") -> None:
    """A live line for `job`, the download of `repo`, with `meanwhile` (what the page shows until it is done) below;
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
                st.caption(meanwhile)

    watch()


def ready_or_download(model_id: str, *, key: str, meanwhile: str | None = None, where=st) -> bool:
    """Whether `model_id` loads now without waiting on the hub. A hub model the cache lacks, while downloads are on,
    does not: in its place (`where`) a Download button with its size where the catalog knows it, once pressed the
    shared download's progress and Cancel, each with `meanwhile` below; a failed or cancelled download is said once
    and the button comes back. Any other model does (with downloads off, loading a hub model the cache lacks says so
    in hub_availability's sentence, which names the switch)."""
    ss, asked, failed = st.session_state, f"{key}_download", f"{key}_download_failed"
    repo = pending_download(model_id)
    if repo is None:
        ss.pop(asked, None)
        return True
    box = st.container() if where is st else where  # a container: the download's live line is drawn in it
    if failed in ss:
        box.error(f"Could not download {repo}: {ss.pop(failed)}")
    if ss.get(asked) != repo:
        facts = find_entry(model_id).facts
        size = f" ({byte_size(facts.download_bytes)})" if facts is not None else ""
        box.info(f"'{repo}' is not on this machine yet: it downloads from the Hugging Face hub{size} when asked.")
        if box.button(f"Download {repo}", key=f"{key}_download_button"):
            ss[asked] = repo
            st.rerun()
        if meanwhile is not None:
            box.caption(meanwhile)
        return False

    def give_up(reason: str) -> None:
        ss.pop(asked, None)
        ss[failed] = reason

    with box:
        download_status(download_job(repo), repo, meanwhile, give_up, key=f"{key}-download")
    return False
