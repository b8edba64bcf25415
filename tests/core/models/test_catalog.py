import json
import shutil

import numpy as np
import pytest

from core.deployment import load_config
from core.encoding.encoder import encode
from core.models.catalog import L3_ID, ModelUnavailable, catalog, find_entry
from core.models.conversion import convert_l3
from core.models.loading import load_model
from core.models.packages import l3_onnx_file
from core.models.sources import availability, resolve


@pytest.fixture
def config_env(monkeypatch):
    """Set EXPLORER_* variables for one test; the config is re-read."""
    def setter(**values):
        for key, value in values.items():
            monkeypatch.setenv(f"EXPLORER_{key.upper()}", value)
        load_config.cache_clear()
    yield setter
    load_config.cache_clear()


def test_catalog_lists_the_required_ids_with_the_packaged_default_available():
    ids = [entry.id for entry in catalog()]
    assert ids[:4] == ["all-MiniLM-L6-v2", "paraphrase-MiniLM-L3-v2", "all-mpnet-base-v2", "untrained-bert"]
    assert {"bert-base-uncased", "distilbert-base-uncased", "msmarco-bert-base-dot-v5",
            "bert-base-nli-mean-tokens"} <= set(ids)
    assert availability("all-MiniLM-L6-v2").available
    assert find_entry("untrained-bert").label == "untrained BERT"


def test_hub_models_are_unavailable_offline_in_one_sentence_naming_the_id_and_the_switch():
    status = availability("bert-base-uncased")  # the tests run with HF_HUB_OFFLINE=1
    assert not status.available
    assert status.message == (
        "'google-bert/bert-base-uncased' is not in the local Hugging Face cache, and HF_HUB_OFFLINE=1 turns downloads "
        "off; on a machine with network, start without HF_HUB_OFFLINE, or choose a model that is already here.")
    with pytest.raises(ModelUnavailable, match="'sentence-transformers/msmarco-bert-base-dot-v5' .* HF_HUB_OFFLINE=1"):
        load_model("msmarco-bert-base-dot-v5")


def test_hub_models_download_on_first_use_by_default(online):
    assert availability("bert-base-uncased").reason == "Downloads from the Hugging Face hub on first use."
    assert availability("owner/some-model").reason == "Downloads from the Hugging Face hub on first use."


@pytest.mark.parametrize("variable, value", [("TRANSFORMERS_OFFLINE", "1"), ("HF_HUB_OFFLINE", "yes")])
def test_the_offline_switch_is_named_as_it_is_set(online, monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)  # as huggingface_hub reads it at import
    assert f"and {variable}={value} turns downloads off; on a machine with network, start without {variable}," in \
        availability("owner/some-model").message


def test_the_deployment_switch_turns_downloads_off_and_is_named(online, config_env):
    config_env(allow_downloads="0")
    assert availability("owner/some-model").message == (
        "'owner/some-model' is not in the local Hugging Face cache, and EXPLORER_ALLOW_DOWNLOADS=0 turns downloads "
        "off; on a machine with network, set allow_downloads to true, or choose a model that is already here.")


def test_both_switches_are_named_when_both_are_on(config_env):
    config_env(allow_downloads="false")
    assert "and HF_HUB_OFFLINE=1 and EXPLORER_ALLOW_DOWNLOADS=false turn downloads off; on a machine with network, " \
        "start without HF_HUB_OFFLINE and set allow_downloads to true," in availability("owner/some-model").message


def test_the_deployment_switch_is_named_from_explorer_toml_when_no_variable_sets_it(tmp_path, monkeypatch):
    from core.deployment import where_set

    config = tmp_path / "explorer.toml"
    config.write_text("[explorer]\nallow_downloads = false\n")
    monkeypatch.setattr("core.deployment.CONFIG_FILE", config)
    monkeypatch.setattr("core.deployment.load_config", lambda: load_config(config))
    assert where_set("allow_downloads") == "allow_downloads = false in explorer.toml"


def test_mpnet_is_listed_as_not_installed_with_the_command():
    status = availability("all-mpnet-base-v2")
    assert not status.available and "make models-extra" in status.remedy


@pytest.mark.parametrize("model_id, message", [
    ("../../etc", "neither config.json nor modules.json"),
    ("https://example.com/model", "is a URL"),
    ("not a valid id!", "neither a model folder on this machine nor a Hugging Face id"),
])
@pytest.mark.usefixtures("two_levels_below_a_plain_folder")
def test_bad_custom_ids_are_refused_with_a_sentence(model_id, message):
    status = availability(model_id)
    assert not status.available and message in status.reason


def test_custom_models_can_be_switched_off_for_hosted_demos(config_env, tiny_bert_folder):
    assert availability(str(tiny_bert_folder)).available
    config_env(allow_custom_models="0")
    status = availability(str(tiny_bert_folder))
    assert not status.available and "allows only catalog models" in status.reason


def test_a_local_folder_loads_as_a_plain_checkpoint_with_mean_pooling(tiny_bert):
    assert tiny_bert.entry.source == "custom"
    assert tiny_bert.default_pooling == "mean" and not tiny_bert.normalizes
    assert tiny_bert.num_layers == 2 and tiny_bert.hidden_size == 32


def test_untrained_bert_is_seeded_and_reproducible():
    first, second = load_model("untrained-bert", "cpu"), load_model("untrained-bert", "cpu")
    assert first.entry.untrained and first.num_layers == 6
    np.testing.assert_array_equal(encode(first, ["same weights"]).vectors, encode(second, ["same weights"]).vectors)
    assert first.fingerprint == second.fingerprint


@pytest.mark.slow
def test_l3_conversion_matches_onnxruntime_on_its_own_file(tmp_path):
    import onnxruntime

    folder = convert_l3(tmp_path / "l3")
    assert json.loads((folder / "config.json").read_text())["num_hidden_layers"] == 3
    assert json.loads((folder / "1_Pooling" / "config.json").read_text())["embedding_dimension"] == 384
    model = load_model(str(folder), "cpu")
    texts = ["A man is playing a guitar.", "Transformers embed text.", "short"]
    session = onnxruntime.InferenceSession(str(l3_onnx_file()))
    for text in texts:
        ids = model.tokenizer(text, return_tensors="np")
        token_out, sentence_out = session.run(["onnx::Shape_422", "461"], {
            "input_ids": ids["input_ids"].astype(np.int64), "attention_mask": ids["attention_mask"].astype(np.int64)})
        ours = encode(model, [text], pooling="mean").vectors[0]
        assert np.abs(ours - sentence_out[0]).max() <= 1e-5
        import torch
        with torch.inference_mode():
            hidden = model.network(**model.tokenizer(text, return_tensors="pt")).last_hidden_state[0].numpy()
        assert np.abs(hidden - token_out[0]).max() <= 1e-5


def test_l3_is_converted_once_into_the_cache_and_then_reused():
    folder = resolve(L3_ID).folder
    stamp = (folder / "model.safetensors").stat().st_mtime_ns
    assert resolve(L3_ID).folder == folder and (folder / "model.safetensors").stat().st_mtime_ns == stamp
    assert availability(L3_ID).reason == "Converted."
    model = load_model(L3_ID, "cpu")
    assert model.num_layers == 3 and model.default_pooling == "mean" and model.max_length == 128


def st_folder(folder, transformer, pooling_config: dict):
    """A sentence-transformers folder: the tiny BERT, a Pooling module with `pooling_config`, modules.json."""
    shutil.copytree(transformer, folder, dirs_exist_ok=True)
    (folder / "1_Pooling").mkdir()
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(pooling_config))
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    return folder


@pytest.mark.parametrize("config, expected, shown", [
    ({"word_embedding_dimension": 32, "pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}, "cls",
     "cls"),
    ({"word_embedding_dimension": 32, "pooling_mode_mean_sqrt_len_tokens": True}, "mean_sqrt_len",
     "mean_sqrt_len_tokens"),
    ({"embedding_dimension": 32, "pooling_mode": "max"}, "max", "max"),
    ({"embedding_dimension": 32, "pooling_mode": "mean"}, "mean", "mean"),
])
def test_default_pooling_is_read_from_old_and_new_sentence_transformers_configs(tmp_path, tiny_bert_folder, config,
                                                                               expected, shown):
    from core.models.anatomy import sentence_transformers_modules

    model = load_model(str(st_folder(tmp_path / "st", tiny_bert_folder, config)), "cpu")
    assert model.default_pooling == expected
    assert sentence_transformers_modules(model)[1] == {"index": 1, "module": "Pooling", "detail": f"pooling: {shown}"}


def test_a_plain_checkpoint_pools_by_the_mean_and_lists_no_modules(tiny_bert):
    from core.models.anatomy import sentence_transformers_modules

    assert tiny_bert.default_pooling == "mean" and not tiny_bert.normalizes
    assert sentence_transformers_modules(tiny_bert) == []


def test_an_l3_folder_not_saved_by_sentence_transformers_counts_as_not_converted(tmp_path):
    from core.models.conversion import SAVED_BY_SENTENCE_TRANSFORMERS, l3_converted

    (tmp_path / "model.safetensors").touch()
    assert not l3_converted(tmp_path)  # an earlier version wrote the module files by hand
    (tmp_path / SAVED_BY_SENTENCE_TRANSFORMERS).write_text("{}")
    assert l3_converted(tmp_path)


def test_a_half_written_fine_tuned_folder_is_not_listed(tmp_path, monkeypatch):
    monkeypatch.setattr("core.models.catalog.models_dir", lambda: tmp_path)  # not the cache other tests share
    for name in (".mine.tmp123", "mine"):
        (tmp_path / "finetuned" / name).mkdir(parents=True)
        (tmp_path / "finetuned" / name / "explorer-card.json").write_text(json.dumps({"base": "x", "data": "y"}))
    assert [entry.id for entry in catalog() if entry.source == "finetuned"] == ["mine"]
