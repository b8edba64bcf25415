"""Gated and private models, and tokens: a stub of the hub on loopback (tests/hubstub.py, since olah serves neither)
refuses each repo as the hub does, and the app's own resolution (tests/hubclient.py, in a subprocess: the path the
sidebar's download job and the command line take) says each refusal in its one sentence. With HF_TOKEN set, or a
login saved in HF_HOME, every request the stub gets carries the token as huggingface_hub sends it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.hubserver import hub_env
from tests.hubstub import FORBIDDEN, GATED, GATED_FILES, INVALID_TOKEN, MISSING, PUBLIC, HubStub, hub_stub

TOKEN = "hf_stub_reader"


@pytest.fixture(scope="module")
def stub():
    with hub_stub() as server:
        yield server


def refusal(stub: HubStub, repo: str, home: Path, *revision: str, **variables: str) -> str:
    """The sentence the app says for `repo` (at `revision`) against the stub, asked from a fresh HF_HOME with
    `variables` set."""
    done = subprocess.run([sys.executable, "-m", "tests.hubclient", repo, *revision], cwd=ROOT, capture_output=True,
                          text=True, env=hub_env(stub.url, home, **variables), timeout=120)
    assert done.returncode == 0, done.stderr  # a sentence, never a traceback
    answer = json.loads(done.stdout)
    assert answer["folder"] == "", answer
    return answer["message"]


def gated(stub: HubStub, repo: str) -> str:
    return (f"'{repo}' is gated on the hub at {stub.url}: accept its terms on its page, {stub.url}/{repo}, signed in "
            "(its authors may have to approve the request), then set HF_TOKEN to a token of that account (or run "
            "`hf auth login`).")


@pytest.mark.parametrize("repo", [GATED, GATED_FILES])
@pytest.mark.parametrize("token", [None, TOKEN])
def test_a_gated_model_says_to_accept_its_terms_then_set_a_token(stub, tmp_path, repo, token):
    assert refusal(stub, repo, tmp_path, **({"HF_TOKEN": token} if token else {})) == gated(stub, repo)
    if repo == GATED_FILES:  # its metadata came, and the refusal is the file's, as the hub serves a gated model
        assert any("/resolve/" in request.path for request in stub.asked_for(repo))


def test_a_missing_or_private_model_says_to_check_the_id_or_set_a_token_that_may_read_it(stub, tmp_path):
    assert refusal(stub, MISSING, tmp_path / "anonymous") == (
        f"'{MISSING}' was not found on the hub at {stub.url}, or it is private: check the id (owner/name, as on its "
        "hub page); if it is private, set HF_TOKEN to a token of an account that may read it (or run `hf auth "
        "login`).")
    assert refusal(stub, MISSING, tmp_path / "signed-in", HF_TOKEN=TOKEN) == (
        f"'{MISSING}' was not found on the hub at {stub.url}, or it is private: check the id (owner/name, as on its "
        "hub page); if it is private, the token in use (HF_TOKEN, else the saved login) may not read it: set "
        "HF_TOKEN to a token of an account that may.")


def test_an_invalid_token_is_said_to_be_invalid(stub, tmp_path):
    assert refusal(stub, MISSING, tmp_path, HF_TOKEN=INVALID_TOKEN) == (
        f"The hub at {stub.url} refused the token in use (HF_TOKEN, else the saved login) as invalid when asked for "
        f"'{MISSING}': set HF_TOKEN to a valid token ({stub.url}/settings/tokens), or unset it for a public model.")


def test_a_token_without_the_right_to_read_is_said_so(stub, tmp_path):
    assert refusal(stub, FORBIDDEN, tmp_path, HF_TOKEN=TOKEN) == (
        f"The hub at {stub.url} refused '{FORBIDDEN}' to the token in use (HF_TOKEN, else the saved login) (HTTP "
        "403): set HF_TOKEN to a token of an account allowed to read it (a fine-grained token names the repos it may "
        "read).")


def test_a_revision_the_hub_lacks_is_named_with_the_id(stub, tmp_path):
    assert refusal(stub, PUBLIC, tmp_path, "v9") == (
        f"'{PUBLIC}' has no revision 'v9' on the hub at {stub.url}: give a branch, tag or commit of it (its hub page "
        "lists them), or leave the revision out for main.")


def test_the_token_goes_with_every_request_from_hf_token_or_the_saved_login_and_none_goes_without(stub, tmp_path):
    stub.seen.clear()  # what earlier tests asked
    refusal(stub, GATED_FILES, tmp_path / "set", HF_TOKEN=TOKEN)
    sent = stub.asked_for(GATED_FILES)
    assert len(sent) >= 3  # the metadata, the file list and a file
    assert {request.authorization for request in sent} == {f"Bearer {TOKEN}"}

    saved = tmp_path / "logged-in"  # where `hf auth login` saves the token: HF_HOME/token
    saved.mkdir()
    (saved / "token").write_text("hf_stub_saved", encoding="utf-8")
    stub.seen.clear()
    refusal(stub, GATED_FILES, saved)
    assert {request.authorization for request in stub.asked_for(GATED_FILES)} == {"Bearer hf_stub_saved"}

    stub.seen.clear()
    refusal(stub, GATED_FILES, tmp_path / "anonymous")
    assert stub.asked_for(GATED_FILES) and {request.authorization for request in stub.asked_for(GATED_FILES)} == {None}
