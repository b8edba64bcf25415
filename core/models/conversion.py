"""paraphrase-MiniLM-L3-v2 ships only as an ONNX file: convert it once into a transformers folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import torch

from core.models.building import BUILDING
from core.models.catalog import L3_ID, ModelUnavailable
from core.models.packages import l3_onnx_file, packaged_minilm_folder
from core.models.quiet import quiet_transformers
from core.paths import atomic_folder, held, models_dir

SAVED_BY_SENTENCE_TRANSFORMERS = "config_sentence_transformers.json"
TOKENIZER_FILES = ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")


def _onnx_bert_state_dict(onnx_path: Path) -> dict[str, torch.Tensor]:
    """Map an exported sentence-transformers BERT's ONNX initializers onto BertModel parameter names.

    Named initializers carry their names; each anonymous MatMul weight is named after the bias that
    the graph adds to its product (`...query.bias` -> `...query.weight`), transposed to Linear layout.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    prefix = "model.0.auto_model."
    state = {k.removeprefix(prefix): torch.from_numpy(v.copy()) for k, v in init.items() if k.startswith(prefix)}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        weight = next((n for n in node.input if n in init and not n.startswith(prefix)), None)
        if weight is None:
            continue
        for add in consumers.get(node.output[0], []):
            bias = next((n for n in add.input if n.startswith(prefix) and n.endswith(".bias")), None)
            if add.op_type == "Add" and bias:
                name = bias.removeprefix(prefix).removesuffix("bias") + "weight"
                state[name] = torch.from_numpy(init[weight].T.copy())
    return state


def copy_tokenizer(source: Path, target: Path) -> None:
    for name in TOKENIZER_FILES:
        if (source / name).exists():
            shutil.copy2(source / name, target / name)


def l3_folder() -> Path:
    return models_dir() / L3_ID


def l3_converted(folder: Path) -> bool:
    """A whole conversion saved by sentence-transformers (earlier versions wrote the module files by hand, with a
    Pooling config that the installed sentence-transformers cannot read)."""
    return (folder / "model.safetensors").exists() and (folder / SAVED_BY_SENTENCE_TRANSFORMERS).exists()


def converted_l3() -> Path:
    """The converted folder, converting it first when needed; one conversion at a time, so a session never reads
    a folder that another one is replacing."""
    with held(models_dir() / f".{L3_ID}.lock"):
        if l3_converted(l3_folder()):
            return l3_folder()
        with BUILDING:
            return convert_l3()


def convert_l3(target: Path | None = None) -> Path:
    """Write paraphrase-MiniLM-L3-v2 as a transformers + sentence-transformers folder (atomically)."""
    from safetensors.torch import save_file
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from transformers import BertConfig, BertModel

    quiet_transformers()
    target = target or l3_folder()
    minilm = packaged_minilm_folder()
    state = _onnx_bert_state_dict(l3_onnx_file())
    config = BertConfig.from_pretrained(minilm, num_hidden_layers=3)
    model = BertModel(config, add_pooling_layer=False)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids")]
    if missing or unexpected:
        raise ModelUnavailable(f"The ONNX file did not map onto BERT (missing {missing[:3]}, extra {unexpected[:3]}).")
    with atomic_folder(target) as tmp:
        config.save_pretrained(tmp)
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, tmp / "model.safetensors")
        copy_tokenizer(minilm, tmp)
        transformer = Transformer(str(tmp), max_seq_length=128, model_kwargs={"local_files_only": True},
                                  processor_kwargs={"local_files_only": True})
        transformer.auto_model.pooler = None  # the ONNX file has none: keep random weights out of the save
        SentenceTransformer(modules=[transformer, Pooling(config.hidden_size, "mean")]).save(str(tmp))
    return target
