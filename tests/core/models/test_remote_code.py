"""A model whose files name code of its own is refused in one sentence before anything loads (its code never runs):
config.json's auto_map, or a modules.json module that is not sentence-transformers' own."""

import pytest

from core.models.catalog import ModelUnavailable
from core.models.loading import load_model
from core.models.remote_code import own_code
from core.models.sources import resolve
from tests.own_code import AUTO_MAP_SAID, MODULE_SAID, refusal, with_auto_map, with_custom_module


def test_what_names_code_of_its_own():
    assert own_code({"model_type": "bert"}, [{"type": "sentence_transformers.models.Pooling"}]) is None
    assert own_code(None, None) is None
    assert own_code({"auto_map": {"AutoTokenizer": ["tok.Slow", "tok.Fast"]}}, None) == \
        "its config.json maps AutoTokenizer to tok.Slow"
    assert own_code({}, [{"type": "sentence_transformers.models.Transformer"}, {"type": "mine.Pooling"}]) == \
        "its modules.json names the module mine.Pooling"


@pytest.mark.parametrize("build, said", [(with_auto_map, AUTO_MAP_SAID), (with_custom_module, MODULE_SAID)])
def test_a_folder_that_names_its_own_code_is_refused_in_one_sentence_before_loading(
        tmp_path, tiny_sentence_transformer_folder, build, said):
    folder = build(tiny_sentence_transformer_folder, tmp_path / "remote")
    for load in (resolve, load_model):
        with pytest.raises(ModelUnavailable) as refused:
            load(str(folder))
        assert str(refused.value) == refusal(str(folder), said)
