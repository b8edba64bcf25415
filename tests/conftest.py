"""Shared fixtures: an isolated per-run cache, no network, the packaged model loaded once, a tiny BERT."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_CACHE = tempfile.mkdtemp(prefix="explorer-test-cache-")
os.environ["EXPLORER_CACHE_DIR"] = _CACHE
os.environ["HF_HUB_OFFLINE"] = "1"  # huggingface_hub's offline mode: no test reaches a hub by accident
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ["EXPLORER_WARM_UP"] = "0"  # no start-up work in the background while tests measure pages
# Ray's token for every cluster a test starts inside this process (ray.init turns token authentication on and, with
# no token in a variable, writes one to ~/.ray/auth_token; its client keeps the first token it reads for good)
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`make test` runs two pytest-xdist workers (`--dist loadgroup`), each taking a whole group at a time. A module is
    a group, so its module fixtures are built once; the browser tests are one group, so one app server and one
    Chromium serve them; modules that start Ray declare the group "ray" (`pytest.mark.xdist_group`), since
    `ray.init()` with no address joins the cluster `ray start` last started on the machine, another worker's too. The
    two long groups go first, one to each worker, and the modules share out the rest."""
    if not hasattr(config, "workerinput"):  # not an xdist worker: the run's order stays as collected
        return
    for item in items:
        if not any(item.iter_markers("xdist_group")):
            browser = item.path.is_relative_to(ROOT / "tests" / "browser")
            item.add_marker(pytest.mark.xdist_group("browser" if browser else str(item.path.relative_to(ROOT))))
    first = {"browser": 0, "ray": 1}
    items.sort(key=lambda item: first.get(item.get_closest_marker("xdist_group").args[0], 2))


@pytest.fixture
def one_omp_thread() -> Iterator[None]:
    """FAISS builds an HNSW graph with OpenMP threads, whose order of insertion can differ between runs: with one
    thread every graph, and so every approximate neighbour a test compares, is the same each run. FAISS and torch
    share one OpenMP runtime, so torch's threads are given back afterwards."""
    import faiss
    import torch

    threads = torch.get_num_threads()
    faiss.omp_set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def minilm():
    """The packaged all-MiniLM-L6-v2 on the CPU (loaded once for the whole run)."""
    from core.models.loading import load_model

    return load_model("all-MiniLM-L6-v2", "cpu")


@pytest.fixture(scope="session")
def tiny_bert_folder(tmp_path_factory) -> Path:
    """A 2-layer, 32-dim BERT with MiniLM's tokenizer, saved as a plain transformers folder."""
    import torch
    from transformers import BertConfig, BertModel

    from core.models.conversion import copy_tokenizer
    from core.models.packages import packaged_minilm_folder

    folder = tmp_path_factory.mktemp("tiny-bert")
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=128)
    torch.manual_seed(1)
    BertModel(config).save_pretrained(folder)
    copy_tokenizer(packaged_minilm_folder(), folder)
    return folder


@pytest.fixture(scope="session")
def tiny_sentence_transformer_folder(tiny_bert_folder, tmp_path_factory) -> Path:
    """The tiny BERT with mean pooling, saved by sentence-transformers (modules.json and its configs)."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer

    transformer = Transformer(str(tiny_bert_folder))
    folder = tmp_path_factory.mktemp("tiny-st")
    SentenceTransformer(modules=[transformer, Pooling(transformer.get_embedding_dimension(), "mean")]).save(str(folder))
    return folder


@pytest.fixture(scope="session")
def retrained_tiny_folder(tiny_sentence_transformer_folder, tmp_path_factory) -> Path:
    """The tiny SentenceTransformer with other weights (each one moved by seeded noise), as a retrained model's next
    commit would hold."""
    import shutil

    import numpy as np
    from safetensors.numpy import load_file, save_file

    folder = tmp_path_factory.mktemp("retrained") / "model"
    shutil.copytree(tiny_sentence_transformer_folder, folder)
    weights, noise = load_file(str(folder / "model.safetensors")), np.random.default_rng(2)
    save_file({name: (tensor + noise.normal(0, 0.05, tensor.shape)).astype(tensor.dtype)
               if tensor.dtype.kind == "f" else tensor for name, tensor in weights.items()},
              str(folder / "model.safetensors"))
    return folder


# the catalog's sparse model, reranker and one of its dense models (core.models.catalog), as the hub server serves
# tiny stand-ins for them
CATALOG_SPARSE = "opensearch-project/opensearch-neural-sparse-encoding-doc-v3-distill"
CATALOG_RERANKER = "cross-encoder/ms-marco-MiniLM-L6-v2"
CATALOG_DENSE = "thenlper/gte-small"
CATALOG_LATE = "answerdotai/answerai-colbert-small-v1"  # a Stanford ColBERT checkpoint on the hub
CATALOG_PYLATE = "lightonai/GTE-ModernColBERT-v1"  # a PyLate one
LARGE_PADDING_BYTES = 100_000_000  # about 3 s from olah on loopback: progress to watch, a download to cancel


@pytest.fixture(scope="session")
def large_model_folder(tiny_sentence_transformer_folder, tmp_path_factory) -> Path:
    """The tiny SentenceTransformer with a 100 MB safetensors file of seeded random bytes beside its weights (a file
    the download fetches, as it fetches every *.safetensors, and loading never reads)."""
    import shutil

    import numpy as np
    from safetensors.numpy import save_file

    folder = tmp_path_factory.mktemp("large") / "model"
    shutil.copytree(tiny_sentence_transformer_folder, folder)
    padding = np.random.default_rng(0).integers(0, 256, LARGE_PADDING_BYTES, dtype=np.uint8)
    save_file({"padding": padding}, str(folder / "padding.safetensors"))
    return folder


CARD = """---
license: apache-2.0
base_model: explorer-tests/tiny-bert
language:
- en
- de
library_name: sentence-transformers
tags:
- sentence-transformers
---

# tiny-st-card

A 2-layer, 32-dimension model for the tests, with a card that declares its licence, base model, languages and library.
"""


@pytest.fixture(scope="session")
def carded_model_folder(tiny_sentence_transformer_folder, tmp_path_factory) -> Path:
    """The tiny SentenceTransformer with a model card (README.md) whose front matter declares a licence, a base model,
    two languages and a library."""
    import shutil

    folder = tmp_path_factory.mktemp("carded") / "model"
    shutil.copytree(tiny_sentence_transformer_folder, folder)
    (folder / "README.md").write_text(CARD, encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def hub(tmp_path_factory, tiny_sentence_transformer_folder, retrained_tiny_folder, large_model_folder,
        carded_model_folder, sparse_folders, reranker_folder, late_folders):
    """A hub-protocol server on loopback (olah, tests/hubserver.py) serving the packaged all-MiniLM-L6-v2, the tiny
    SentenceTransformer, the tiny one and then its retrained weights as two commits of one repo, the tiny one with a
    large file beside it, the tiny one with a model card, the tiny one again under an owner its rules refuse and twice
    with code of its own (tests/own_code.py), the tiny inference-free SparseEncoder and CrossEncoder under the hub
    ids of the catalog's sparse model and reranker, the tiny one with its large file under the hub id of one of
    the catalog's dense models, and the tiny Stanford and PyLate ColBERT checkpoints under the hub ids of the catalog's
    late-interaction models of those formats; skipped without `make hub-server`."""
    from core.models.packages import packaged_minilm_folder
    from tests.extras import missing
    from tests.hubserver import OLAH, REFUSED_ORG, hub_server
    from tests.own_code import with_auto_map, with_custom_module

    if not OLAH.is_file():
        missing(f"olah is not installed ({OLAH} is missing): run `make hub-server` once")
    own_code = tmp_path_factory.mktemp("own-code")
    models = {"sentence-transformers/all-MiniLM-L6-v2": [packaged_minilm_folder()],
              "explorer-tests/tiny-st": [tiny_sentence_transformer_folder],
              "explorer-tests/tiny-st-revised": [tiny_sentence_transformer_folder, retrained_tiny_folder],
              "explorer-tests/tiny-st-large": [large_model_folder],
              "explorer-tests/tiny-st-card": [carded_model_folder],
              f"{REFUSED_ORG}/tiny-st": [tiny_sentence_transformer_folder],
              "explorer-tests/tiny-auto-map": [with_auto_map(tiny_sentence_transformer_folder, own_code / "auto-map")],
              "explorer-tests/tiny-own-module": [with_custom_module(tiny_sentence_transformer_folder,
                                                                    own_code / "own-module")],
              CATALOG_SPARSE: [sparse_folders["inference-free"]],
              CATALOG_RERANKER: [reranker_folder],
              CATALOG_DENSE: [large_model_folder],
              CATALOG_LATE: [late_folders["stanford"]], CATALOG_PYLATE: [late_folders["pylate"]]}
    with hub_server(tmp_path_factory.mktemp("hub"), models) as server:
        yield server


@pytest.fixture(scope="session")
def downloaded_hub_cache(hub, tmp_path_factory) -> Path:
    """A Hugging Face cache that huggingface_hub filled from the loopback hub (in a subprocess, see
    tests/core/models/test_hub.py): the tiny SentenceTransformer at main, and the two-commit repo at both commits.
    Tests that change it work on a copy (`shutil.copytree(..., symlinks=True)`)."""
    import subprocess
    import sys

    from tests.hubserver import hub_env

    home = tmp_path_factory.mktemp("downloaded")
    revised = "explorer-tests/tiny-st-revised"
    script = ("import sys\nfrom huggingface_hub import snapshot_download\n"
              "for repo, revision in zip(sys.argv[1::2], sys.argv[2::2]):\n"
              "    snapshot_download(repo, revision=revision)\n")
    subprocess.run([sys.executable, "-c", script, "explorer-tests/tiny-st", "main", revised, hub.commits[revised][0],
                    revised, "main"], check=True, env=hub_env(hub.url, home), timeout=120)
    return home / "hub"


@pytest.fixture(scope="session")
def carded_hub_home(hub, tmp_path_factory) -> Path:
    """A Hugging Face home whose cache holds explorer-tests/tiny-st-card as the app downloads it (tests/hubclient.py,
    in a subprocess). Tests that change it work on a copy (`shutil.copytree(..., symlinks=True)`)."""
    import subprocess
    import sys

    from tests.hubserver import hub_env

    home = tmp_path_factory.mktemp("carded-home")
    subprocess.run([sys.executable, "-m", "tests.hubclient", "explorer-tests/tiny-st-card"], cwd=ROOT, check=True,
                   env=hub_env(hub.url, home), capture_output=True, timeout=120)
    return home


@pytest.fixture(scope="session")
def tiny_bert(tiny_bert_folder):
    from core.models.loading import load_model

    return load_model(str(tiny_bert_folder), "cpu")



SHARED_MODELS = ("minilm", "tiny_bert", "splade")


def _model_state(model) -> tuple:
    """What a test could change on a shared model: its settings, its mode and a checksum of its weights (the
    embedding memo is meant to fill)."""
    whole = model.sparse if model.sparse is not None else model.network  # a sparse model's MLM head too
    weights = sum(float(parameter.detach().double().sum()) for parameter in whole.parameters())
    return model.max_length, model.device, model.dimensions, whole.training, weights


@pytest.fixture(autouse=True)
def shared_models_stay_as_loaded(request):
    """The session's models are shared by every test, so a test that changes one fails here, not a later test
    that meets the change (sentence-transformers gives each test a copy; a copy per test costs more here)."""
    used = {name: request.getfixturevalue(name) for name in SHARED_MODELS if name in request.fixturenames}
    before = {name: _model_state(model) for name, model in used.items()}
    yield
    for name, model in used.items():
        assert _model_state(model) == before[name], f"this test changed the shared model `{name}`"

@pytest.fixture
def online(monkeypatch):
    """huggingface_hub out of offline mode for one test (it read HF_HUB_OFFLINE once, at import): only for tests that
    never reach the download itself."""
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", False)


@pytest.fixture
def hub_uncached(online, tmp_path, monkeypatch) -> Iterator[list[str]]:
    """Online, with an empty Hugging Face cache, so every hub model of the catalog is offered and would download when
    loaded (only for tests that never reach the download itself); the ids the app's model cache loads meanwhile."""
    from ui.work import cache

    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    loaded: list[str] = []
    load = cache.load_model

    def loading(model_id: str, device: str):
        loaded.append(model_id)
        return load(model_id, device)

    monkeypatch.setattr(cache, "load_model", loading)
    cache.cached_catalog.clear()  # availability, kept 30 s, changes with the switch
    yield loaded
    cache.cached_catalog.clear()


@pytest.fixture
def two_levels_below_a_plain_folder(tmp_path, monkeypatch) -> None:
    """Work two folders below tmp_path, so "../../etc" names a real folder that holds no model, wherever the clone
    is."""
    (tmp_path / "etc").mkdir()
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)


def app_test_on_model(model: str, page: str):
    """An AppTest with `model` (a folder or id) typed in the sidebar's "Other model", switched to `page`."""
    at = app_test()
    at.sidebar.text_input(key="sb_custom").set_value(model).run()
    assert not at.exception and not at.sidebar.error
    return at.switch_page(page).run()


def app_test(page: str | None = None, *, settle: bool = True, **query: str):
    """An AppTest of the whole app (sidebar included), switched to `page` (e.g. "views/similarity.py"). With `settle`,
    background jobs the page started (a corpus to embed) finish and the page runs again, as its fragment would."""
    from streamlit.testing.v1 import AppTest

    from core.jobs import JOBS

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if page is not None:  # as a link to `page` would open it: the home page's run dropped the page's own values
        for key, value in query.items():
            at.query_params[key] = value
        at.switch_page(page).run()
    if settle and JOBS.unfinished():
        assert JOBS.wait_idle(900), "background jobs still running after 15 minutes"
        at.run()
    return at


@pytest.fixture(scope="session")
def sparse_folders(tmp_path_factory) -> dict[str, Path]:
    """The tiny SparseEncoder folders of tests/sparse.py, each saved by sentence-transformers."""
    from tests.sparse import SPARSE_FIXTURES

    root = tmp_path_factory.mktemp("sparse")
    return {name: build(root / name) for name, build in SPARSE_FIXTURES.items()}


@pytest.fixture(scope="session")
def late_folders(tmp_path_factory) -> dict[str, Path]:
    """The tiny late-interaction folders of tests/multivector.py, as sentence-transformers, PyLate and Stanford's
    ColBERT save them."""
    from tests.multivector import LATE_FIXTURES

    root = tmp_path_factory.mktemp("late")
    return {name: build(root / name) for name, build in LATE_FIXTURES.items()}


@pytest.fixture(scope="session")
def clip_folder(tmp_path_factory) -> Path:
    """A tiny CLIP with seeded random weights, saved by sentence-transformers (tests/image_text.py)."""
    from tests.image_text import build_clip

    return build_clip(tmp_path_factory.mktemp("tiny-clip"))


@pytest.fixture(scope="session")
def siglip_folder(tmp_path_factory) -> Path:
    """A tiny SigLIP with seeded random weights, saved by sentence-transformers (tests/image_text.py)."""
    from tests.image_text import build_siglip

    return build_siglip(tmp_path_factory.mktemp("tiny-siglip"))


@pytest.fixture(scope="session")
def reranker_folder(tmp_path_factory) -> Path:
    """A tiny CrossEncoder folder saved by sentence-transformers."""
    from tests.sparse import cross_encoder

    return cross_encoder(tmp_path_factory.mktemp("reranker"))


@pytest.fixture(scope="session")
def splade():
    """The packaged SPLADE-tiny on the CPU (loaded once for the whole run)."""
    from core.models.loading import load_model

    return load_model("splade-tiny", "cpu")


@pytest.fixture(autouse=True)
def fresh_tags() -> Iterator[None]:
    """No tags outlive a test: every corpus of texts shares one store of tags (core.data.labels), so a tag one test
    made would be a column of another test's corpus that holds the same texts."""
    import shutil

    from core.paths import cache_dir

    shutil.rmtree(cache_dir() / "tags", ignore_errors=True)
    yield
    shutil.rmtree(cache_dir() / "tags", ignore_errors=True)
