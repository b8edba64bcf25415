"""The sentence-transformers folder format in one place: modules.json and the Transformer, Pooling, Dense and
Normalize modules it lists, read into one value (and written, for a converted model)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import torch

# A Pooling config.json: older versions set a `pooling_mode_*` flag per mode, newer ones name the mode(s) in
# `pooling_mode`.
_FLAG_OF_MODE = {"cls": "pooling_mode_cls_token", "max": "pooling_mode_max_tokens",
                 "mean": "pooling_mode_mean_tokens", "mean_sqrt_len_tokens": "pooling_mode_mean_sqrt_len_tokens",
                 "weightedmean": "pooling_mode_weightedmean_tokens", "lasttoken": "pooling_mode_lasttoken"}
_OUR_POOLING = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max",  # first match wins
                "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len", "pooling_mode_mean_tokens": "mean"}
_MODE_OF_OURS = {"mean": "mean", "cls": "cls", "max": "max", "mean_sqrt_len": "mean_sqrt_len_tokens"}


@dataclass(frozen=True)
class StModule:
    """One entry of modules.json: its kind (the class name), its folder and its config.json (or {})."""

    kind: str
    path: Path
    config: dict = field(default_factory=dict)


@dataclass(frozen=True)
class StPipeline:
    """What turns the transformer's token states into a sentence vector, as a sentence-transformers folder
    describes it. A plain transformers checkpoint has no modules: mean pooling, nothing after it."""

    transformer: Path
    modules: tuple[StModule, ...] = ()
    pooling: str = "mean"
    normalizes: bool = False
    max_seq_length: int | None = None

    @property
    def dense(self) -> tuple[StModule, ...]:
        return tuple(module for module in self.modules if module.kind == "Dense")

    def dense_stack(self) -> torch.nn.Module | None:
        """The Dense modules as one network (loaded by sentence-transformers), or None when there are none."""
        if not self.dense:
            return None
        from sentence_transformers.models import Dense

        return torch.nn.Sequential(*(Dense.load(str(module.path)) for module in self.dense))


def pooling_flags(config: dict) -> list[str]:
    """The `pooling_mode_*` flags a Pooling config.json sets, or stands for when it names its modes."""
    named = config.get("pooling_mode")
    if named is None:
        return [key for key, on in config.items() if key.startswith("pooling_mode_") and on is True]
    modes = [named] if isinstance(named, str) else named
    return [_FLAG_OF_MODE.get(mode, f"pooling_mode_{mode}") for mode in modes]


def pooling_from_config(config: dict) -> str:
    """This project's pooling name for a Pooling config.json; mean where none of ours matches."""
    flags = pooling_flags(config)
    return next((mode for flag, mode in _OUR_POOLING.items() if flag in flags), "mean")


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def read_pipeline(folder: Path) -> StPipeline:
    """The folder's pipeline; older folders keep the transformer in a subfolder such as 0_BERT."""
    modules_file = folder / "modules.json"
    if not modules_file.exists():
        return StPipeline(transformer=folder)
    listed = json.loads(modules_file.read_text(encoding="utf-8"))
    modules = tuple(StModule(entry["type"].rsplit(".", 1)[-1], folder / entry.get("path", ""),
                             _json(folder / entry.get("path", "") / "config.json")) for entry in listed)
    pooling = next((pooling_from_config(m.config) for m in modules if m.kind == "Pooling"), "mean")
    return StPipeline(transformer=modules[0].path if modules else folder, modules=modules, pooling=pooling,
                      normalizes=any(m.kind == "Normalize" for m in modules),
                      max_seq_length=_json(folder / "sentence_bert_config.json").get("max_seq_length"))


def write_pipeline(folder: Path, *, pooling: str, dimension: int, max_seq_length: int) -> None:
    """modules.json, the Pooling config and sentence_bert_config.json for a transformer saved in `folder`."""
    (folder / "1_Pooling").mkdir()
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    ], indent=2))
    flags = {flag: _FLAG_OF_MODE[_MODE_OF_OURS[pooling]] == flag for flag in _OUR_POOLING}
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": dimension, **flags},
                                                                 indent=2))
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))
