"""Hub models against a real hub-protocol server on loopback (olah, see tests/hubserver.py). huggingface_hub reads
HF_ENDPOINT, HF_HOME and HF_HUB_OFFLINE once, when it is imported, and this process imported it offline (conftest), so
each load runs in a subprocess with its own environment: the server's address, a fresh cache, offline mode off
(tests/hubclient.py, or the command line)."""

from __future__ import annotations

import filecmp
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from tests.conftest import CATALOG_LATE, CATALOG_PYLATE, CATALOG_RERANKER, CATALOG_SPARSE, ROOT
from tests.hubserver import REFUSED_ORG, hub_env
from tests.own_code import AUTO_MAP_SAID, MODULE_SAID, refusal
from tests.ports import free_port

pytestmark = pytest.mark.slow

TEXTS = ["A man is playing a guitar.", "Transformers embed text into vectors.", "short", "Der Hund bellt laut."]
TINY = "explorer-tests/tiny-st"


def resolved(model_id: str, env: dict[str, str]) -> dict:
    """tests/hubclient.py's answer: the folder, or the sentence that refused `model_id`, and the seconds it took."""
    done = subprocess.run([sys.executable, "-m", "tests.hubclient", model_id], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # a refusal is a sentence, never a traceback
    return json.loads(done.stdout)


@pytest.mark.parametrize("repo_id", ["sentence-transformers/all-MiniLM-L6-v2", TINY])
def test_a_hub_id_downloads_with_no_switch_set_and_embeds_as_sentence_transformers_does(hub, tmp_path, repo_id):
    from sentence_transformers import SentenceTransformer

    env = hub_env(hub.url, tmp_path / "hf-home")
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "core", "embed", "--model", repo_id, "--pooling", "default",
                           "--input", str(tmp_path / "in.txt"), "--output", str(tmp_path / "out.npy")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    source = hub.sources[repo_id]
    expected = SentenceTransformer(str(source), device="cpu", local_files_only=True).encode(TEXTS)
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), expected, rtol=0, atol=1e-6)

    later = resolved(repo_id, env | {"HF_HUB_OFFLINE": "1"})  # downloaded once, then loaded offline from the cache
    folder = later["folder"]
    assert folder.startswith(str(tmp_path / "hf-home" / "hub")), later
    assert filecmp.cmp(f"{folder}/model.safetensors", source / "model.safetensors", shallow=False)


@pytest.mark.parametrize("variable", ["HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"])
def test_offline_mode_refuses_a_model_the_server_holds_naming_the_switch(hub, tmp_path, variable):
    answer = resolved(TINY, hub_env(hub.url, tmp_path, **{variable: "1"}))
    assert answer["message"] == (
        f"'{TINY}' is not in the local Hugging Face cache, and {variable}=1 turns downloads off; on a machine with "
        f"network, start without {variable}, or choose a model that is already here.")


def test_the_deployment_switch_refuses_a_model_the_server_holds_naming_the_switch(hub, tmp_path):
    answer = resolved(TINY, hub_env(hub.url, tmp_path, EXPLORER_ALLOW_DOWNLOADS="0"))
    assert answer["message"] == (
        f"'{TINY}' is not in the local Hugging Face cache, and EXPLORER_ALLOW_DOWNLOADS=0 turns downloads off; on a "
        "machine with network, set allow_downloads to true, or choose a model that is already here.")


@pytest.mark.parametrize("repo_id", [f"{REFUSED_ORG}/tiny-st", "explorer-tests/no-such-model"])
def test_a_repo_the_hub_refuses_or_lacks_is_said_to_be_missing_or_private_with_what_to_do(hub, tmp_path, repo_id):
    answer = resolved(repo_id, hub_env(hub.url, tmp_path))
    assert answer["message"] == (
        f"'{repo_id}' was not found on the hub at {hub.url}, or it is private: check the id (owner/name, as on its "
        "hub page); if it is private, set HF_TOKEN to a token of an account that may read it (or run `hf auth "
        "login`).")
    assert not any((tmp_path / "hub").glob("models--*/snapshots/*/*"))  # nothing half-downloaded to load from later


def test_a_hub_nobody_listens_on_fails_within_seconds_in_one_sentence(tmp_path):
    endpoint = f"http://127.0.0.1:{free_port()}"  # a closed port
    answer = resolved(TINY, hub_env(endpoint, tmp_path))
    assert answer["message"] == (f"Could not download '{TINY}' from the hub at {endpoint} (ConnectError); check the "
                                 "network, or choose a model that is already here.")
    # the refused connection alone, imports left out (tests/hubclient.py): milliseconds, where huggingface_hub's
    # backoff would wait 1 + 2 + 4 + 8 + 8 s between retries
    assert answer["seconds"] < 15


@contextmanager
def silent_server(patience: float) -> Iterator[str]:
    """A server on loopback that takes connections and never answers, closing each after `patience` seconds; its
    address. A client without a timeout of its own then fails with another error, instead of hanging."""
    listener = socket.create_server(("127.0.0.1", 0))
    timers: list[threading.Timer] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # the listener was shut
                return
            timers.append(threading.Timer(patience, connection.close))
            timers[-1].start()

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        thread.join()
        for timer in timers:
            timer.cancel()
            timer.function()


def test_a_hub_that_never_answers_fails_after_the_metadata_timeout_instead_of_hanging(tmp_path):
    with silent_server(patience=60) as endpoint:
        answer = resolved(TINY, hub_env(endpoint, tmp_path, HF_HUB_ETAG_TIMEOUT="2"))
    # its own read timeout, not the server closing the connection after 60 s (that would be a RemoteProtocolError)
    assert answer["message"] == (f"Could not download '{TINY}' from the hub at {endpoint} (ReadTimeout); check the "
                                 "network, or choose a model that is already here.")
    assert answer["seconds"] >= 2  # the metadata timeout, waited out


@pytest.mark.parametrize("repo_id, said", [("explorer-tests/tiny-auto-map", AUTO_MAP_SAID),
                                           ("explorer-tests/tiny-own-module", MODULE_SAID)])
def test_a_hub_model_that_names_code_of_its_own_is_refused_before_its_weights_come_down(hub, tmp_path, repo_id, said):
    answer = resolved(repo_id, hub_env(hub.url, tmp_path))
    assert answer["message"] == refusal(repo_id, said)
    assert not list((tmp_path / "hub").glob("models--*"))  # its config was read aside first: nothing came down


def core_command(env: dict[str, str], *arguments: str) -> str:
    done = subprocess.run([sys.executable, "-m", "core", *arguments], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_catalogs_sparse_model_downloads_and_embeds_both_roles_as_sparse_encoder_does(hub, tmp_path):
    """The tiny inference-free SparseEncoder served under the catalog's sparse model's hub id: downloaded with no
    switch set, loaded as the catalog's kind says, each role equal to encode_query / encode_document."""
    from sentence_transformers import SparseEncoder

    env = hub_env(hub.url, tmp_path / "hf-home")
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    reference = SparseEncoder(str(hub.sources[CATALOG_SPARSE]), device="cpu")
    for role, encode in (("document", reference.encode_document), ("query", reference.encode_query)):
        core_command(env, "embed", "--model", CATALOG_SPARSE, "--pooling", "default", "--role", role, "--input",
                     str(tmp_path / "in.txt"), "--output", str(tmp_path / f"{role}.npz"))
        np.testing.assert_allclose(sp.load_npz(tmp_path / f"{role}.npz").toarray(),
                                   encode(TEXTS).to_dense().numpy(), atol=1e-5)


def test_the_catalogs_reranker_downloads_and_scores_as_cross_encoder_predicts(hub, tmp_path):
    """The tiny CrossEncoder served under the catalog's reranker's hub id: downloaded with no switch set, its ranking
    and scores CrossEncoder.predict's on the same folder."""
    from sentence_transformers import CrossEncoder

    query = "Where does the dog bark?"
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    ranked = json.loads(core_command(hub_env(hub.url, tmp_path / "hf-home"), "rerank", "--model", CATALOG_RERANKER,
                                     "--query", query, "--input", str(tmp_path / "in.txt")))
    expected = CrossEncoder(str(hub.sources[CATALOG_RERANKER]), device="cpu").predict([(query, text) for text in TEXTS])
    assert [row["text"] for row in ranked] == [TEXTS[i] for i in np.argsort(-expected, kind="stable")]
    np.testing.assert_allclose([row["score"] for row in ranked], np.sort(expected)[::-1], atol=1e-5)


ENCODED = """import json, sys
from core.encoding.late.tokens import encode_multivector
from core.models.loading import load_model
model = load_model(sys.argv[1], "cpu")
texts = json.loads(sys.argv[2])
vectors = {role: [text.vectors.tolist() for text in encode_multivector(model, texts, role=role)]
           for role in ("query", "document")}
print(json.dumps({"kind": model.kind, **vectors}))
"""


@pytest.mark.parametrize("repo_id", [CATALOG_LATE, CATALOG_PYLATE])
def test_the_catalogs_late_interaction_models_download_and_encode_as_multi_vector_encoder_does(hub, tmp_path, repo_id):
    """The tiny Stanford ColBERT and PyLate checkpoints served under the catalog's late-interaction models' hub ids:
    downloaded with no switch set (a Stanford checkpoint's artifact.metadata, its markers and lengths, with the rest),
    then loaded by catalog id from the cache with downloads off, each role's token vectors equal to
    MultiVectorEncoder's own on the served folder."""
    from sentence_transformers import MultiVectorEncoder

    env = hub_env(hub.url, tmp_path / "hf-home")
    found = resolved(repo_id, env)
    assert found["message"] == "" and found["folder"]
    source = hub.sources[repo_id]
    assert sorted(path.name for path in Path(found["folder"]).glob("*.metadata")) == sorted(
        path.name for path in source.glob("*.metadata"))
    done = subprocess.run([sys.executable, "-c", ENCODED, repo_id, json.dumps(TEXTS)], cwd=ROOT, capture_output=True,
                          env=env | {"HF_HUB_OFFLINE": "1"}, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["kind"] == "late interaction"
    reference = MultiVectorEncoder(str(source), device="cpu", local_files_only=True)
    for role, encode in (("query", reference.encode_query), ("document", reference.encode_document)):
        for ours, theirs in zip(printed[role], encode(TEXTS), strict=True):
            np.testing.assert_allclose(np.array(ours, np.float32), theirs.numpy(), atol=1e-6)
