"""The catalog's CLIP (sentence-transformers/clip-ViT-B-32, lesson 24's model) keeps its weights as a pickle in a
module folder of sentence-transformers' older layout: 0_CLIPModel/pytorch_model.bin, no safetensors file. A tiny CLIP
saved in that layout and served by olah under that id downloads whole (the pickle counted in the size known first),
embeds pictures as sentence-transformers does, and a cached snapshot without the pickle is not taken for a whole one.
A folder whose weights are safetensors never fetches a pickle beside them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from core.models.catalog import CLIP_ID
from core.models.download import pickled_weights
from tests.conftest import ROOT
from tests.core.models.test_hub import resolved
from tests.extras import missing
from tests.hubserver import OLAH, hub_env, hub_server
from tests.image_text import build_clip, draw_folder

pytestmark = pytest.mark.slow


def test_only_a_folders_pickled_weights_without_safetensors_beside_them_are_fetched():
    files = ["config.json", "model.safetensors", "pytorch_model.bin", "0_CLIPModel/config.json",
             "0_CLIPModel/pytorch_model.bin", "1_Dense/model.safetensors", "1_Dense/pytorch_model.bin",
             "2_Other/pytorch_model.bin.index.json"]
    assert pickled_weights(files) == ["0_CLIPModel/pytorch_model.bin"]


@pytest.fixture(scope="module")
def legacy_clip(tmp_path_factory) -> Path:
    """The tiny CLIP in clip-ViT-B-32's layout: modules.json naming sentence-transformers' CLIPModel module in
    0_CLIPModel/, whose weights are torch.save's pickle of the state dict."""
    import torch
    from safetensors.torch import load_file

    plain = build_clip(tmp_path_factory.mktemp("clip"), sentence_transformers=False)
    root = tmp_path_factory.mktemp("legacy-clip") / "model"
    module = root / "0_CLIPModel"
    shutil.copytree(plain, module)
    torch.save(load_file(module / "model.safetensors"), module / "pytorch_model.bin")
    (module / "model.safetensors").unlink()
    (root / "modules.json").write_text(json.dumps([{"idx": 0, "name": "0", "path": "0_CLIPModel",
                                                    "type": "sentence_transformers.models.CLIPModel"}]))
    (root / "config_sentence_transformers.json").write_text(json.dumps({"__version__": {
        "sentence_transformers": "2.0.0", "transformers": "4.6.0", "pytorch": "1.7.1"}}))
    return root


@pytest.fixture(scope="module")
def clip_hub(legacy_clip, tmp_path_factory):
    if not OLAH.is_file():
        missing(f"olah is not installed ({OLAH} is missing): run `make hub-server` once")
    with hub_server(tmp_path_factory.mktemp("hub"), {CLIP_ID: [legacy_clip]}) as server:
        yield server


def test_the_catalogs_clip_downloads_its_pickled_weights_and_embeds_pictures_as_sentence_transformers_does(
        clip_hub, legacy_clip, tmp_path):
    from sentence_transformers import SentenceTransformer

    drawn = draw_folder(tmp_path / "drawn", per_class=2)
    env = hub_env(clip_hub.url, tmp_path / "hf-home")
    done = subprocess.run([sys.executable, "-m", "core", "embed", "--model", CLIP_ID, "--input", str(drawn),
                           "--output", str(tmp_path / "out.parquet")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    table = pd.read_parquet(tmp_path / "out.parquet")
    reference = SentenceTransformer(str(legacy_clip), device="cpu")
    assert reference.modalities == ["text", "image"]
    pictures = [Image.open(drawn / path).convert("RGB") for path in table["image"]]
    np.testing.assert_allclose(np.stack(table["vector"]), reference.encode(pictures), atol=1e-5)

    offline = env | {"HF_HUB_OFFLINE": "1"}
    folder = Path(resolved(CLIP_ID, offline)["folder"])
    assert (folder / "0_CLIPModel" / "pytorch_model.bin").is_file()
    (folder / "0_CLIPModel" / "pytorch_model.bin").unlink()  # as a download stopped inside that file leaves it
    again = resolved(CLIP_ID, offline)
    assert again["folder"] == "" and "not in the local Hugging Face cache" in again["message"], again
