"""The command line at a revision of a hub model, and its list of downloaded models, against olah on loopback serving
a repo of two commits (the tiny SentenceTransformer, then its retrained weights on main). Downloads run in a
subprocess (see tests/core/models/test_hub.py); commands that read a cache huggingface_hub filled from olah run in
this process, offline, with that cache as huggingface_hub's."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.cli import main
from core.progress import byte_size
from tests.conftest import ROOT
from tests.core.models.test_cache import distinct_bytes
from tests.hubserver import hub_env

pytestmark = pytest.mark.slow

TINY, REVISED = "explorer-tests/tiny-st", "explorer-tests/tiny-st-revised"
TEXTS = ["A man is playing a guitar.", "Transformers embed text into vectors.", "short"]


def embedded(tmp_path: Path, env: dict[str, str], *options: str) -> tuple[subprocess.CompletedProcess, Path]:
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    output = tmp_path / f"out-{len(list(tmp_path.glob('out-*')))}.npy"
    done = subprocess.run([sys.executable, "-m", "core", "embed", "--model", REVISED, *options, "--pooling",
                           "default", "--input", str(tmp_path / "in.txt"), "--output", str(output)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return done, output


def encoded(folder: Path) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(folder), device="cpu", local_files_only=True).encode(TEXTS)


def test_embed_loads_the_commit_asked_for_and_main_without_one(hub, tmp_path, tiny_sentence_transformer_folder,
                                                               retrained_tiny_folder):
    env = hub_env(hub.url, tmp_path / "hf-home")
    first, later = hub.commits[REVISED]
    done, at_first = embedded(tmp_path, env, "--revision", first)
    assert done.returncode == 0, done.stderr
    np.testing.assert_allclose(np.load(at_first), encoded(tiny_sentence_transformer_folder), rtol=0, atol=1e-6)
    done, at_main = embedded(tmp_path, env)
    assert done.returncode == 0, done.stderr
    np.testing.assert_allclose(np.load(at_main), encoded(retrained_tiny_folder), rtol=0, atol=1e-6)
    assert not np.allclose(np.load(at_first), np.load(at_main), atol=1e-3)  # the two commits differ

    offline = env | {"HF_HUB_OFFLINE": "1"}
    done, again = embedded(tmp_path, offline, "--revision", first)  # from the cache now
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(again), np.load(at_first))
    done, _ = embedded(tmp_path, offline, "--revision", "v2")
    assert done.stderr.strip() == (
        f"error: '{REVISED}' at revision 'v2' is not in the local Hugging Face cache, and HF_HUB_OFFLINE=1 turns "
        "downloads off; on a machine with network, start without HF_HUB_OFFLINE, or choose a model that is already "
        "here.")


def test_a_revision_the_hub_lacks_is_said_in_one_sentence_naming_the_id_and_the_revision(hub, tmp_path):
    done, output = embedded(tmp_path, hub_env(hub.url, tmp_path / "hf-home"), "--revision", "no-such-branch")
    assert done.returncode == 1 and not output.exists()
    assert done.stderr.strip() == (
        f"error: '{REVISED}' has no revision 'no-such-branch' on the hub at {hub.url}: give a branch, tag or commit "
        "of it (its hub page lists them), or leave the revision out for main.")


def test_a_revision_of_a_model_that_is_not_from_the_hub_is_refused(tmp_path, capsys):
    (tmp_path / "in.txt").write_text("a text\n", encoding="utf-8")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--revision", "main", "--pooling", "default",
                 "--input", str(tmp_path / "in.txt"), "--output", str(tmp_path / "out.npy")]) == 1
    assert capsys.readouterr().err == ("error: 'all-MiniLM-L6-v2' does not come from the Hugging Face hub, so it has "
                                       "no revisions; leave the revision out.\n")


@pytest.fixture
def hub_cache(downloaded_hub_cache, tmp_path, monkeypatch) -> Path:
    """A copy of a cache huggingface_hub filled from olah (tiny-st at main, the two-commit repo at both), as this
    process's Hugging Face cache."""
    from huggingface_hub import constants

    copy = tmp_path / "hub"
    shutil.copytree(downloaded_hub_cache, copy, symlinks=True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(copy))
    return copy


def printed(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def ranked(answer: dict, ranker: str) -> list[tuple[int, float]]:
    """The search answer's ranking by `ranker`: each text's index and score, best first."""
    return [(row["index"], row["score"]) for row in answer["results"] if row["ranker"] == ranker]


def test_search_and_evaluate_at_a_revision_equal_the_same_commit_loaded_as_a_folder(hub, hub_cache, capsys,
                                                                                    tiny_sentence_transformer_folder):
    first = hub.commits[REVISED][0]
    (hub_cache.parent / "corpus.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    search = ["search", "--pooling", "default", "--query", "a guitar", "--corpus", str(hub_cache.parent / "corpus.txt")]
    at_revision = ranked(printed(capsys, *search, "--model", REVISED, "--revision", first), REVISED)
    folder = str(tiny_sentence_transformer_folder)
    assert at_revision == ranked(printed(capsys, *search, "--model", folder), folder)
    assert at_revision != ranked(printed(capsys, *search, "--model", REVISED), REVISED)  # main: the retrained commit

    sts = ["evaluate", "sts", "--pooling", "default", "--split", "dev"]
    scores = printed(capsys, *sts, "--model", REVISED, "--revision", first)
    assert scores == printed(capsys, *sts, "--model", str(tiny_sentence_transformer_folder))
    assert scores != printed(capsys, *sts, "--model", REVISED)


def test_models_downloaded_lists_the_cache(hub, hub_cache, capsys, retrained_tiny_folder):
    first, later = hub.commits[REVISED]
    listed = printed(capsys, "models", "--downloaded", "--json")
    assert [(row["id"], row["size_on_disk"], row["revisions"]) for row in listed] == [
        (TINY, distinct_bytes(hub.sources[TINY]), [f"{hub.commits[TINY][0][:7]} (main)"]),
        (REVISED, distinct_bytes(hub.sources[TINY], retrained_tiny_folder), [f"{later[:7]} (main)", first[:7]])]
    assert main(["models", "--downloaded"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "size", "last", "used", "revisions"]
    assert [line.split()[:3] for line in lines[1:]] == [[row["id"], *byte_size(row["size_on_disk"]).split()]
                                                         for row in listed]
    assert lines[2].endswith(f"  {later[:7]} (main), {first[:7]}")


def test_models_downloaded_says_when_nothing_is(tmp_path, monkeypatch, capsys):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert main(["models", "--downloaded"]) == 0
    assert capsys.readouterr().out == (f"No model has been downloaded into the Hugging Face cache ({tmp_path / 'hub'}) "
                                       "yet.\n")
    assert printed(capsys, "models", "--downloaded", "--json") == []
