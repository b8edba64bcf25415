"""Pooling token states into one vector per text, as sentence-transformers defines each mode."""

from __future__ import annotations

import torch

from core.settings import Pooling

CONCRETE_POOLINGS = ("mean", "cls", "max", "mean_sqrt_len")


def pool(states: torch.Tensor, mask: torch.Tensor, mode: str) -> torch.Tensor:
    """Pool `states` (batch, tokens, dims) under `mask` (batch, tokens) with a concrete mode."""
    weights = mask.unsqueeze(-1).to(states.dtype)
    if mode == "cls":
        return states[:, 0]
    if mode == "max":
        masked = states.masked_fill(weights == 0, torch.finfo(states.dtype).min)
        return masked.max(dim=1).values
    summed = (states * weights).sum(dim=1)
    counts = weights.sum(dim=1).clamp(min=1e-9)
    if mode == "mean":
        return summed / counts
    if mode == "mean_sqrt_len":
        return summed / counts.sqrt()
    raise ValueError(f"Unknown pooling {mode!r}; choose one of {', '.join(CONCRETE_POOLINGS)}.")


def resolve_pooling(pooling: Pooling, model_default: str) -> str:
    """`default` means the model's own pooling (its sentence-transformers config), else mean."""
    return model_default if pooling == "default" else pooling
