"""A model whose files name code of its own is refused in one sentence before anything loads (its code never runs):
config.json's auto_map, or a modules.json module that is not sentence-transformers' own."""

import json
import shutil

import pytest

from core.models.catalog import ModelUnavailable
from core.models.loading import load_model
from core.models.remote_code import own_code
from core.models.sources import resolve

RAISES = "raise SystemExit('the model's own code ran')\n"


def with_auto_map(source, folder):
    shutil.copytree(source, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps(config | {"auto_map": {"AutoModel": "modeling_custom.CustomModel"}}))
    (folder / "modeling_custom.py").write_text(RAISES)
    return folder


def with_custom_module(source, folder):
    shutil.copytree(source, folder)
    modules = json.loads((folder / "modules.json").read_text())
    modules[1]["type"] = "custom_pooling.FancyPooling"
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / "custom_pooling.py").write_text(RAISES)
    return folder


def test_what_names_code_of_its_own():
    assert own_code({"model_type": "bert"}, [{"type": "sentence_transformers.models.Pooling"}]) is None
    assert own_code(None, None) is None
    assert own_code({"auto_map": {"AutoTokenizer": ["tok.Slow", "tok.Fast"]}}, None) == \
        "its config.json maps AutoTokenizer to tok.Slow"
    assert own_code({}, [{"type": "sentence_transformers.models.Transformer"}, {"type": "mine.Pooling"}]) == \
        "its modules.json names the module mine.Pooling"


@pytest.mark.parametrize("build, said", [
    (with_auto_map, "its config.json maps AutoModel to modeling_custom.CustomModel"),
    (with_custom_module, "its modules.json names the module custom_pooling.FancyPooling"),
])
def test_a_folder_that_names_its_own_code_is_refused_in_one_sentence_before_loading(
        tmp_path, tiny_sentence_transformer_folder, build, said):
    folder = build(tiny_sentence_transformer_folder, tmp_path / "remote")
    expected = (f"'{folder}' needs code of its own to load ({said}), and this app never runs a model's own code, so "
                "it was refused; pick another model.")
    for load in (resolve, load_model):
        with pytest.raises(ModelUnavailable) as refused:
            load(str(folder))
        assert str(refused.value) == expected
