"""What turns a transformer's token states into a sentence vector: the modules after the transformer in a loaded
SentenceTransformer. sentence-transformers reads its own folder format (modules.json, Pooling, Dense, Normalize);
this module only describes the result in this project's terms."""

from __future__ import annotations

from dataclasses import dataclass

import torch

_OUR_POOLING = {"cls": "cls", "max": "max", "mean_sqrt_len_tokens": "mean_sqrt_len", "mean": "mean"}


@dataclass(frozen=True)
class Stage:
    """One module of the pipeline: its class name and what it does, in words."""

    kind: str
    detail: str


class DenseHead(torch.nn.Module):
    """sentence-transformers' Dense modules applied to a batch of pooled vectors (they pass a features dict)."""

    def __init__(self, modules: list[torch.nn.Module]) -> None:
        super().__init__()
        self.stack = torch.nn.ModuleList(modules)

    def forward(self, vectors: torch.Tensor) -> torch.Tensor:
        features = {"sentence_embedding": vectors}
        for module in self.stack:
            features = module(features)
        return features["sentence_embedding"]


@dataclass(frozen=True)
class Pipeline:
    """`described` is False for a plain transformers checkpoint: the app then pools by the mean itself."""

    pooling: str = "mean"
    normalizes: bool = False
    dense: DenseHead | None = None
    max_seq_length: int | None = None
    stages: tuple[Stage, ...] = ()
    described: bool = True


def our_pooling(mode: str | tuple[str, ...] | list[str]) -> str:
    """This project's name for a sentence-transformers pooling mode; mean where none of ours matches."""
    modes = [mode] if isinstance(mode, str) else list(mode)
    return next((ours for theirs, ours in _OUR_POOLING.items() if theirs in modes), "mean")


def _detail(module: torch.nn.Module, network: torch.nn.Module, max_seq_length: int | None) -> str:
    kind = type(module).__name__
    if kind == "Transformer":
        return f"{type(network).__name__}, max {max_seq_length} tokens"
    if kind == "Pooling":
        mode = module.pooling_mode
        return "pooling: " + (mode if isinstance(mode, str) else ", ".join(mode))
    if kind == "Dense":
        return f"{module.in_features} → {module.out_features} dims"
    if kind == "Normalize":
        return "scales each sentence vector to unit length"
    return ""


def pipeline_of(model, *, described: bool = True) -> Pipeline:
    """The pipeline of a loaded `sentence_transformers.SentenceTransformer`."""
    modules = list(model)
    network = modules[0].auto_model
    pooling = next((our_pooling(m.pooling_mode) for m in modules if type(m).__name__ == "Pooling"), "mean")
    dense = [m for m in modules if type(m).__name__ == "Dense"]
    return Pipeline(pooling=pooling, normalizes=any(type(m).__name__ == "Normalize" for m in modules),
                    dense=DenseHead(dense) if dense else None, max_seq_length=model.max_seq_length,
                    stages=tuple(Stage(type(m).__name__, _detail(m, network, model.max_seq_length)) for m in modules),
                    described=described)
