"""The catalog's hub models in the pickers, in AppTest: the sidebar lists each with its size and licence, available
while downloads are on and marked not available, with the switch named, while one is off; Rerank offers the catalog's
reranker, downloading it only when asked (opening the page starts no download)."""

import pytest

from core.deployment import load_config
from core.jobs import DOWNLOADS
from core.models.catalog import DEFAULT_MODEL_ID, catalog
from core.models.loading import load_model
from tests.conftest import CATALOG_RERANKER, app_test
from tests.views.test_rerank_pages import CORPUS
from ui.components.rerank import TYPED
from ui.work.cache import cached_catalog

HUB = [entry for entry in catalog() if entry.source == "hub" and entry.kind != "reranker"]


@pytest.fixture(autouse=True)
def fresh_catalog():
    """The catalog's availability is cached for 30 s; each test sets its own switches."""
    cached_catalog.clear()
    load_config.cache_clear()
    yield
    cached_catalog.clear()
    load_config.cache_clear()


def picker(at) -> list[str]:
    return at.sidebar.selectbox(key="sb_model").options


def test_while_downloads_are_on_the_picker_offers_each_hub_model_with_its_size_and_licence(online):
    at = app_test()
    assert not at.exception
    assert {entry.listed() for entry in HUB} <= set(picker(at))  # none marked not available
    assert "opensearch-neural-sparse-encoding-doc-v3-distill (sparse) · 67M · 272 MB · Apache-2.0" in picker(at)
    assert CATALOG_RERANKER not in " ".join(picker(at))  # rerankers are chosen under Rerank
    assert not [c for c in at.sidebar.caption if "are not available" in c.value]
    listing = " ".join(m.value for m in at.sidebar.markdown)  # every hub model in full, rerankers too
    assert all(f"**{entry.label}**: {entry.description}." in listing for entry in catalog() if entry.source == "hub")


OFFLINE = "HF_HUB_OFFLINE=1 turns downloads off; on a machine with network, start without HF_HUB_OFFLINE."
DEPLOYMENT = ("EXPLORER_ALLOW_DOWNLOADS=0 turns downloads off; on a machine with network, set allow_downloads to "
              "true.")


@pytest.mark.parametrize("switch, said", [(None, OFFLINE), ("EXPLORER_ALLOW_DOWNLOADS", DEPLOYMENT)])
def test_while_downloads_are_off_the_hub_models_are_marked_not_available_and_the_switch_is_named(
        request, monkeypatch, switch, said):
    if switch is not None:  # online, with the deployment's switch off instead
        request.getfixturevalue("online")
        monkeypatch.setenv(switch, "0")
    at = app_test()
    assert not at.exception
    assert {entry.listed(available=False) for entry in HUB} <= set(picker(at))
    assert "bge-small-en-v1.5 — not available · 33.4M · 134 MB · MIT" in picker(at)
    assert "**bge-small-en-v1.5** (not available): dense, 33.4M parameters, 134 MB download, MIT;" in " ".join(
        m.value for m in at.sidebar.markdown)
    assert "all-MiniLM-L6-v2" in picker(at)  # packaged: available either way
    assert [c.value for c in at.sidebar.caption if "are not available" in c.value] == [
        f"Models from the Hugging Face hub that are not in the local cache are not available: {said}"]


def rerank_page():
    return app_test("views/retrieval.py", ret_source="Paste texts", ret_paste="\n".join(CORPUS),
                    ret_query="A man plays the guitar.", ret_rerank_first="BM25", ret_rerank_n="3")


def test_rerank_offers_the_catalogs_reranker_and_downloads_it_only_when_asked(online):
    at = rerank_page()
    assert not at.exception and not at.error
    assert at.selectbox(key="ret_rerank").value == CATALOG_RERANKER
    assert "ms-marco-MiniLM-L6-v2 (reranker) · 22.7M · 91.8 MB · Apache-2.0" in at.selectbox(key="ret_rerank").options
    assert [box.value for box in at.info if CATALOG_RERANKER in box.value] == [
        f"'{CATALOG_RERANKER}' is not on this machine yet: it downloads from the Hugging Face hub (91.8 MB) when "
        "asked."]
    assert at.button(key="ret_rerank_download_button").label == f"Download {CATALOG_RERANKER}"
    assert not DOWNLOADS.unfinished()  # opening the page asked the hub for nothing


def test_while_downloads_are_off_rerank_says_why_the_catalogs_reranker_is_not_offered():
    at = rerank_page()
    assert not at.exception
    assert any(box.value.startswith("No reranker on this machine yet") and
               f"'{CATALOG_RERANKER}' is not in the local Hugging Face cache, and HF_HUB_OFFLINE=1 turns downloads off"
               in box.value for box in at.info)


def test_while_downloads_are_off_a_typed_hub_reranker_is_refused_with_the_switch_named_and_nothing_downloads():
    at = rerank_page()
    at.selectbox(key="ret_rerank").set_value(TYPED).run()
    at.text_input(key="ret_rerank_typed").set_value(CATALOG_RERANKER).run()
    assert not at.exception
    assert [box.value for box in at.error] == [
        f"Could not load {CATALOG_RERANKER} as a reranker: '{CATALOG_RERANKER}' is not in the local Hugging Face "
        f"cache, and {OFFLINE[:-1]}, or choose a model that is already here."]
    assert not [button for button in at.button if button.label.startswith("Download")]
    assert not DOWNLOADS.unfinished()


def test_the_late_interaction_models_from_the_hub_are_offered_with_their_kind_size_and_licence(online):
    at = app_test()
    assert not at.exception
    assert {"answerai-colbert-small-v1 (late interaction) · 33.4M · 135 MB · Apache-2.0",
            "GTE-ModernColBERT-v1 (late interaction) · 149M · 600 MB · Apache-2.0"} <= set(picker(at))


def test_a_link_naming_the_catalogs_reranker_says_why_it_is_not_loaded_and_then_says_it_beside_the_box():
    """The reranker is not among the sidebar's models; a link naming it once fell back to the default in silence."""
    with pytest.raises(Exception) as refused:
        load_model(CATALOG_RERANKER)
    at = app_test(model=CATALOG_RERANKER)
    assert not at.exception
    assert [box.value for box in at.sidebar.error] == [
        f"Could not load {CATALOG_RERANKER}: {refused.value} Still showing {DEFAULT_MODEL_ID}."]
    at.switch_page("views/similarity.py").run()
    assert not at.exception and not at.sidebar.error
    assert f"The model typed above is not loaded: {refused.value} Edit it to try again." in [
        caption.value for caption in at.sidebar.caption]
    assert at.sidebar.selectbox(key="sb_model").value == DEFAULT_MODEL_ID
