"""A user types a hub id the cache lacks, on a machine online against a hub (olah on loopback, tests/hubserver.py):
the sidebar says its size, then its progress, and Cancel stops it; typed again, it downloads and the model loads.
On Retrieval the catalog's reranker (a tiny stand-in served under its hub id) is offered, downloads when asked, and
reranks; on Similarity's compare mode a catalog hub model as model B (a stand-in with a large file) downloads when
asked, with its progress, while configuration A is shown alone, and then B is compared. The app server of this module
reaches the hub through a gate (tests/hubserver.py's HubGate), with a fresh Hugging Face cache; a test that must see
a download under way holds the gate, so the download cannot end before the test lets it go."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlencode

import pytest

from tests.browser.harness import SHOTS, check_and_shoot, fill, open_page, start_server, wait_for_idle
from tests.conftest import CATALOG_DENSE, CATALOG_RERANKER
from tests.hubserver import HubGate, hub_env, hub_gate

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LARGE = "explorer-tests/tiny-st-large"
PROGRESS = re.compile(rf"Downloading {LARGE} \((\d+) MB\): ([\d.]+ [kM]?B) / (\d+) MB")


@pytest.fixture(scope="module")
def gate(hub) -> Iterator[HubGate]:
    with hub_gate(hub.url) as gate:
        yield gate


@pytest.fixture(scope="module")
def server(chromium, gate, tmp_path_factory):
    """The app, online against the loopback hub through the gate (this module's own server: the session's runs
    offline)."""
    home = tmp_path_factory.mktemp("hf-home")
    app = start_server(SHOTS / "server-downloads.log", env=hub_env(gate.url, home, HF_HUB_OFFLINE="0"))
    yield app
    app.stop()


@contextmanager
def held(gate: HubGate) -> Iterator[None]:
    gate.hold()
    try:
        yield
    finally:
        gate.release()


def progress_line(page) -> re.Match:
    line = page.locator("[class*='st-key-model-download'] [data-testid='stProgress']").first
    line.wait_for(timeout=30_000)
    found = PROGRESS.search(line.inner_text())
    assert found, line.inner_text()
    return found


def test_a_typed_hub_id_shows_its_size_and_progress_can_be_cancelled_and_then_downloads_and_loads(page, server,
                                                                                                  gate):
    open_page(page, server, "")
    with held(gate):
        fill(page, "Other model", LARGE)
        first = progress_line(page)
        assert first.group(1) == first.group(3) == "105"  # the size, from the hub's file list, before the bytes
        cancel = page.get_by_role("button", name="Cancel download")
        cancel.click()
        cancel.wait_for(state="detached", timeout=30_000)  # the server took the click ("Cancelling…" replaces it)
    # let go, the next bytes reach the download's progress, which ends it as cancelled
    page.get_by_text(f"Could not load {LARGE}: The download of '{LARGE}' was cancelled. Still showing "
                     "all-MiniLM-L6-v2.").wait_for(timeout=60_000)
    page.get_by_text("The model typed above is not loaded").wait_for(timeout=10_000)

    fill(page, "Other model", "")
    wait_for_idle(page, 60)
    with held(gate):
        fill(page, "Other model", LARGE)
        progress_line(page)
        page.screenshot(path=str(SHOTS / "sidebar-download.png"))
    page.get_by_text(f"{LARGE}: 2 layers, 32 dims").wait_for(timeout=120_000)
    assert page.locator("[class*='st-key-model-download']").count() == 0


def test_the_catalogs_reranker_is_offered_downloads_when_asked_and_reranks(page, server):
    texts = ["Someone is playing a guitar.", "The stock market fell sharply today.", "A man plays an acoustic guitar."]
    query = urlencode({"ret_source": "Paste texts", "ret_paste": "\n".join(texts), "ret_query": "A man plays guitar.",
                       "ret_rerank_first": "BM25", "ret_rerank_n": "3"})
    open_page(page, server, f"retrieval?{query}")
    page.get_by_text(f"'{CATALOG_RERANKER}' is not on this machine yet: it downloads from the Hugging Face hub "
                     "(91.8 MB) when asked.").wait_for(timeout=30_000)
    check_and_shoot(page, "rerank-download-offered")
    page.get_by_role("button", name=f"Download {CATALOG_RERANKER}").click()
    page.get_by_text(f"Reranked by {CATALOG_RERANKER}", exact=True).first.wait_for(timeout=120_000)
    wait_for_idle(page)
    check_and_shoot(page, "rerank-downloaded")


def test_compare_mode_downloads_a_hub_model_b_when_asked_with_its_progress_then_compares(page, server, gate):
    open_page(page, server, f"similarity?{urlencode({'sim_compare': '1', 'sim_b_model': CATALOG_DENSE})}")
    page.get_by_text(f"'{CATALOG_DENSE}' is not on this machine yet: it downloads from the Hugging Face hub "
                     "(67.8 MB) when asked.").wait_for(timeout=30_000)
    page.get_by_text(f"Configuration A is shown alone until {CATALOG_DENSE} is here.").wait_for(timeout=10_000)
    check_and_shoot(page, "similarity-compare-download-offered")
    with held(gate):
        page.get_by_role("button", name=f"Download {CATALOG_DENSE}").click()
        line = page.locator("[class*='st-key-sim_b_model-download'] [data-testid='stProgress']").first
        line.wait_for(timeout=30_000)
        assert re.search(rf"Downloading {CATALOG_DENSE} \(105 MB\): [\d.]+ [kM]?B / 105 MB", line.inner_text())
        page.get_by_text(f"Configuration A is shown alone until {CATALOG_DENSE} is here.").wait_for(timeout=10_000)
    page.get_by_text(f"B: {CATALOG_DENSE} · default pooling · layer 2 (last)").wait_for(timeout=120_000)
    wait_for_idle(page)
    check_and_shoot(page, "similarity-compare-downloaded")
