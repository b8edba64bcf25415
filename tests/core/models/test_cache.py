"""The models downloaded into a Hugging Face cache, listed and deleted, on a real cache that huggingface_hub filled
from olah on loopback (the downloaded_hub_cache fixture): the sizes, times and commits are checked against the files
themselves and the server's git commits, and each test that deletes works on its own copy."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from core.models.cache import DeletionRefused, cached_origin, delete_downloaded, downloaded_models

pytestmark = pytest.mark.slow

TINY, REVISED = "explorer-tests/tiny-st", "explorer-tests/tiny-st-revised"


def stored(cache: Path, repo_id: str) -> Path:
    return cache / f"models--{repo_id.replace('/', '--')}"


def distinct_bytes(*folders: Path) -> int:
    """The bytes of the folders' files, each distinct content counted once (the cache keeps one blob per content)."""
    contents = {hashlib.sha256(path.read_bytes()).hexdigest(): path.stat().st_size
                for folder in folders for path in folder.rglob("*") if path.is_file()}
    return sum(contents.values())


@pytest.fixture
def cache(downloaded_hub_cache, tmp_path) -> Path:
    copy = tmp_path / "hub"
    shutil.copytree(downloaded_hub_cache, copy, symlinks=True)
    return copy


def test_each_downloaded_model_is_listed_with_its_size_times_and_commits(hub, downloaded_hub_cache,
                                                                          retrained_tiny_folder):
    listed = {model.repo_id: model for model in downloaded_models(downloaded_hub_cache)}
    assert list(listed) == [TINY, REVISED]
    assert listed[TINY].size_on_disk == distinct_bytes(hub.sources[TINY])
    assert listed[REVISED].size_on_disk == distinct_bytes(hub.sources[TINY], retrained_tiny_folder)
    first, second = hub.commits[REVISED]
    assert listed[TINY].revisions == (f"{hub.commits[TINY][0][:7]} (main)",)
    assert listed[REVISED].revisions == (f"{second[:7]} (main)", first[:7])  # newest first
    for repo_id, model in listed.items():
        blobs = [os.stat(blob) for blob in (stored(downloaded_hub_cache, repo_id) / "blobs").iterdir()]
        assert model.last_modified == max(blob.st_mtime for blob in blobs)
        assert model.last_accessed == max(blob.st_atime for blob in blobs)


def test_a_cache_with_nothing_downloaded_lists_nothing(tmp_path):
    assert downloaded_models(tmp_path / "never-made") == []


def test_deleting_a_model_removes_every_revision_and_leaves_the_others(hub, cache):
    assert hub.commits[REVISED][0] == hub.commits[TINY][0]  # the same files and date: one commit
    size = next(model.size_on_disk for model in downloaded_models(cache) if model.repo_id == REVISED)
    assert delete_downloaded(REVISED, cache) == size
    assert not stored(cache, REVISED).exists()
    assert [model.repo_id for model in downloaded_models(cache)] == [TINY]
    snapshot = next((stored(cache, TINY) / "snapshots").iterdir())
    assert (snapshot / "model.safetensors").read_bytes()  # its links still lead to its blobs


def test_a_model_held_in_memory_is_not_deleted_from_under_it_until_it_is_freed(hub, cache):
    from core.models.loading import load_model

    snapshot = stored(cache, TINY) / "snapshots" / hub.commits[TINY][0]
    model = load_model(str(snapshot), "cpu")
    assert cached_origin(model.folder, cache) == (TINY, hub.commits[TINY][0])
    with pytest.raises(DeletionRefused) as refused:
        delete_downloaded(TINY, cache)
    assert str(refused.value) == (f"'{TINY}' is loaded on this server (a session's model, or one a page is using): "
                                  "choose another model in the sidebar, or wait until no page uses it, then delete "
                                  "it.")
    assert (snapshot / "model.safetensors").is_file()
    del model
    delete_downloaded(TINY, cache)
    assert not stored(cache, TINY).exists()


def test_a_folder_outside_the_cache_has_no_origin(cache, tiny_sentence_transformer_folder):
    assert cached_origin(tiny_sentence_transformer_folder, cache) is None


def test_deleting_is_refused_in_one_sentence_when_switched_off_or_when_the_model_is_not_there(cache, monkeypatch):
    from core.deployment import load_config

    with pytest.raises(DeletionRefused) as missing:
        delete_downloaded("explorer-tests/never-downloaded", cache)
    assert str(missing.value) == (f"'explorer-tests/never-downloaded' is not in the Hugging Face cache at {cache}, "
                                  "so there is nothing to delete; `python -m core models --downloaded` lists what "
                                  "is there.")
    monkeypatch.setenv("EXPLORER_ALLOW_MODEL_DELETION", "0")
    load_config.cache_clear()
    try:
        with pytest.raises(DeletionRefused) as off:
            delete_downloaded(TINY, cache)
    finally:
        monkeypatch.delenv("EXPLORER_ALLOW_MODEL_DELETION")
        load_config.cache_clear()
    assert str(off.value) == "Deleting models is switched off on this server (EXPLORER_ALLOW_MODEL_DELETION=0)."
    assert [model.repo_id for model in downloaded_models(cache)] == [TINY, REVISED]
