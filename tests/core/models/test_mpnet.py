"""all-mpnet-base-v2 (the optional 12-layer extra): it loads, and its STS-B numbers from the command line equal
sentence-transformers' evaluator on the same assembled folder, on the dev split's first pairs (the whole split took
90 s of the suite, for the same comparison). Skipped, with the way to run it, when not installed."""

import json
import os
from pathlib import Path

import pytest

from core.cli import main
from core.data.stsb import load_stsb, stsb_folder
from core.models.catalog import MPNET_ID
from tests.extras import missing
from tests.references import embedding_similarity

# `make models-extra` assembles the model in the user's cache; the tests run on a cache of their own
USER_MODELS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "embedding-explorer" / "models"
PAIRS = 300

pytestmark = pytest.mark.slow
if not (USER_MODELS / MPNET_ID / "config.json").exists():
    missing("all-mpnet-base-v2 is not installed here: run `make models-extra`, then this test.")


@pytest.fixture(autouse=True)
def installed_mpnet(monkeypatch):
    monkeypatch.setattr("core.models.packages.models_dir", lambda: USER_MODELS)


@pytest.fixture
def first_dev_pairs(monkeypatch, tmp_path):
    """STS-B whose dev split is the real one's first PAIRS rows, for the command and the reference alike."""
    lines = (stsb_folder() / "sts-dev.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "sts-dev.csv").write_text("".join(lines[:PAIRS]), encoding="utf-8")
    monkeypatch.setattr("core.data.stsb.stsb_folder", lambda: tmp_path)
    load_stsb.cache_clear()  # earlier tests read the whole split
    yield
    load_stsb.cache_clear()  # and later ones read it again


def test_mpnet_loads_and_its_sts_dev_spearman_equals_the_evaluator(capsys, first_dev_pairs):
    from sentence_transformers import SentenceTransformer

    assert main(["evaluate", "sts", "--model", MPNET_ID, "--pooling", "default", "--split", "dev",
                 "--device", "cpu"]) == 0
    printed = json.loads(capsys.readouterr().out)
    pairs = load_stsb("dev")
    reference_model = SentenceTransformer(str(USER_MODELS / MPNET_ID), device="cpu", local_files_only=True)
    first = reference_model.encode([p.sentence1 for p in pairs])
    second = reference_model.encode([p.sentence2 for p in pairs])
    reference = embedding_similarity(first, second, [p.score for p in pairs])
    assert printed["spearman"] == pytest.approx(reference["spearman_cosine"], abs=1e-5)
    assert printed["pearson"] == pytest.approx(reference["pearson_cosine"], abs=1e-5)
    assert printed["pairs"] == len(pairs) == PAIRS
