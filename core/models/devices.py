"""Which compute devices this machine has, and which one `auto` means."""

from __future__ import annotations

import torch


def available_devices() -> list[str]:
    found = ["cpu"]
    if torch.cuda.is_available():
        found.insert(0, "cuda")
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        found.insert(0, "mps")
    return found


def resolve_device(name: str) -> str:
    """`auto` picks the best present device; an absent one falls back to cpu."""
    present = available_devices()
    if name == "auto":
        return present[0]
    return name if name in present else "cpu"
