"""What a page shows for a hub model it loads by id (not the sidebar's) that the cache lacks, while downloads are on:
the model's Download button with its size from the catalog, and nothing downloading or loading until it is pressed."""

from __future__ import annotations

from core.jobs import DOWNLOADS
from core.models.catalog import find_entry


def assert_download_offered(at, model_id: str, key: str, loaded: list[str]) -> None:
    """`at` offers `model_id` under its widget `key`, and neither downloads it nor loads it (`loaded`: the ids the
    app loaded, from the hub_uncached fixture)."""
    entry = find_entry(model_id)
    assert entry.repo is not None and entry.facts is not None and entry.facts.download_bytes < 99_950_000  # "x.y MB"
    assert [box.value for box in at.info if entry.repo in box.value and "not on this machine" in box.value] == [
        f"'{entry.repo}' is not on this machine yet: it downloads from the Hugging Face hub "
        f"({entry.facts.download_bytes / 1e6:.1f} MB) when asked."]
    assert at.button(key=f"{key}_download_button").label == f"Download {entry.repo}"
    assert not DOWNLOADS.unfinished()
    assert model_id not in loaded
