import shutil

import pytest

from core.progress import byte_size
from tests.conftest import app_test, app_test_on_model

PAGE = "views/model.py"
TINY, REVISED = "explorer-tests/tiny-st", "explorer-tests/tiny-st-revised"


def _frames(at) -> dict[str, object]:
    return {tuple(frame.value.columns)[0]: frame.value for frame in at.dataframe}


def test_opens_with_facts_parameters_modules_and_the_sample_tokenized():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    facts = at.table[0].value
    assert facts.loc["layers", "value"] == "6" and facts.loc["parameters", "value"] == "22,713,216"
    frames = _frames(at)
    parameters = frames["module"]
    assert parameters["module"].tolist() == ["embeddings", *(f"layer {i}" for i in range(1, 7)), "pooler"]
    assert parameters["parameters"].sum() == 22_713_216
    assert frames["index"]["module"].tolist() == ["Transformer", "Pooling", "Normalize"]
    tokens = frames["token"]
    assert tokens["token"].tolist()[:4] == ["[CLS]", "token", "##izer", "##s"]
    assert frames["role"].set_index("role").loc["cls_token", "id"] == 101
    assert "🤖" in at.code[-1].value
    assert {m.label: m.value for m in at.metric}["Vocabulary size"] == "30,522"


def test_typed_text_survives_a_model_switch_and_is_cut_at_the_sidebar_length():
    at = app_test(PAGE)
    at.text_area(key="model_text").set_value("word " * 40).run()
    at.sidebar.number_input(key="sb_maxlen").set_value(16).run()
    assert not at.exception
    assert "The text has 42 tokens, more than the max length of 16" in at.warning[0].value
    assert len(_frames(at)["token"]) == 16
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Tokens in the text"], metrics["Tokens the model sees"]) == ("42", "16")  # "word" x 40 + 2
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert not at.exception
    assert at.text_area(key="model_text").value == "word " * 40
    assert at.table[0].value.loc["layers", "value"] == "3"
    modules = _frames(at)["module"]["module"].tolist()
    assert modules == ["embeddings", "layer 1", "layer 2", "layer 3"]  # no pooler in its checkpoint


def test_untrained_model_and_bad_text():
    at = app_test(PAGE)
    at.sidebar.selectbox(key="sb_model").set_value("untrained-bert").run()
    assert not at.exception
    assert "random weights" in at.warning[0].value
    assert "no modules.json" in " ".join(c.value for c in at.caption)
    at.text_area(key="model_text").set_value("   ").run()
    assert "Type a text above" in at.info[0].value
    at.text_area(key="model_text").set_value("x" * 20_001).run()
    assert "limit (max_chars_per_text) of 20,000" in at.warning[1].value
    assert not at.exception


@pytest.fixture
def hub_cache(downloaded_hub_cache, tmp_path, monkeypatch):
    """A copy of a cache huggingface_hub filled from the loopback hub, as this process's Hugging Face cache."""
    from huggingface_hub import constants

    copy = tmp_path / "hub"
    shutil.copytree(downloaded_hub_cache, copy, symlinks=True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(copy))
    return copy


@pytest.mark.slow
def test_downloaded_models_are_listed_and_one_is_deleted_after_a_confirmation(hub_cache):
    from core.models.cache import downloaded_models

    at = app_test(PAGE)
    listed = _frames(at)["model"]
    assert listed["model"].tolist() == [TINY, REVISED]
    assert listed["size"].tolist() == [byte_size(model.size_on_disk) for model in downloaded_models(hub_cache)]
    at.selectbox(key="dl_pick").set_value(REVISED).run()
    at.button(key="dl_delete").click().run()
    assert f"Delete {REVISED} from this machine's Hugging Face cache" in at.warning[0].value
    at.button(key="dl_delete_yes").click().run()
    assert not at.exception
    assert at.success[0].value.startswith(f"Deleted {REVISED} from the Hugging Face cache (")
    assert _frames(at)["model"]["model"].tolist() == [TINY]
    assert not (hub_cache / f"models--{REVISED.replace('/', '--')}").exists()


@pytest.mark.slow
def test_the_sidebars_model_is_not_deleted_and_a_server_can_switch_deleting_off(hub, hub_cache, monkeypatch):
    from core.deployment import load_config

    snapshot = hub_cache / f"models--{TINY.replace('/', '--')}" / "snapshots" / hub.commits[TINY][0]
    at = app_test_on_model(str(snapshot), PAGE)
    at.selectbox(key="dl_pick").set_value(TINY).run()
    at.button(key="dl_delete").click().run()
    assert at.error[0].value == (f"{TINY} is the sidebar's model now; choose another model in the sidebar, then "
                                 "delete it.")
    assert snapshot.is_dir()
    monkeypatch.setenv("EXPLORER_ALLOW_MODEL_DELETION", "0")
    load_config.cache_clear()
    try:
        at = app_test(PAGE)
        assert not at.exception and not [button for button in at.button if button.key == "dl_delete"]
        assert "Deleting models is switched off on this server (EXPLORER_ALLOW_MODEL_DELETION=0)." in [
            caption.value for caption in at.caption]
    finally:
        monkeypatch.delenv("EXPLORER_ALLOW_MODEL_DELETION")
        load_config.cache_clear()
