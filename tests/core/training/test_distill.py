"""Static distillation with model2vec: the saved model is listed, loads as a static model, and embeds exactly as
model2vec's own `encode` does."""

import json
import shutil

import numpy as np
import pytest

from core.cli import main
from core.encoding.encoder import encode
from core.models.catalog import catalog
from core.models.loading import load_model
from core.training.distill import DistillError, distill_static
from core.training.finetune import FinetuneError, delete_model

TEXTS = ["A man is playing a guitar.", "Someone performs music on stage.", "Unbelievably, the café was closed."]


@pytest.fixture(scope="module")
def distilled(tiny_bert):
    made = distill_static(tiny_bert, pca_dims=16, name="tiny-static")
    yield made
    delete_model(made.id)


def test_the_static_model_is_listed_and_embeds_as_model2vec_does(distilled):
    from model2vec import StaticModel

    entry = next(e for e in catalog() if e.id == "tiny-static")
    assert "static model distilled from" in entry.description
    static = load_model("tiny-static", "cpu")
    assert static.static and static.dimensions == 16
    ours = encode(static, TEXTS).vectors
    theirs = StaticModel.from_pretrained(str(distilled.path)).encode(TEXTS)
    np.testing.assert_allclose(ours, theirs, atol=1e-5)
    assert distilled.seconds > 0


def test_the_command_line_distils_prints_json_and_the_model_is_listed(capsys, tiny_bert_folder):
    assert main(["distill", "--model", str(tiny_bert_folder), "--pca-dims", "8", "--name", "cli-static",
                 "--device", "cpu"]) == 0
    out = json.loads(capsys.readouterr().out)
    try:
        assert out["id"] == "cli-static" and out["seconds"] > 0
        assert main(["models", "--json"]) == 0
        assert "cli-static" in [row["id"] for row in json.loads(capsys.readouterr().out)]
    finally:
        delete_model("cli-static")


def test_what_cannot_be_distilled_is_said_with_a_way_forward(distilled, tiny_bert, tiny_bert_folder, tmp_path):
    with pytest.raises(DistillError, match="static model already"):
        distill_static(load_model("tiny-static", "cpu"))
    with pytest.raises(DistillError, match="at most the model's 32 dimensions"):
        distill_static(tiny_bert, pca_dims=64)
    with pytest.raises(FinetuneError, match="exists already"):
        distill_static(tiny_bert, pca_dims=8, name="tiny-static")
    shutil.copytree(tiny_bert_folder, tmp_path / "no-vocabulary-file")
    (tmp_path / "no-vocabulary-file" / "tokenizer.json").unlink()
    with pytest.raises(DistillError, match="no vocabulary file"):
        distill_static(load_model(str(tmp_path / "no-vocabulary-file"), "cpu"), pca_dims=8)
