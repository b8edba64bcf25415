"""STS-B's splits by name: what core.data.stsb loads and the command line's --split offers. It imports nothing, so
that building the command line's parser loads no data library."""

from __future__ import annotations

from typing import Literal

Split = Literal["train", "dev", "test"]
SPLITS: tuple[Split, ...] = ("train", "dev", "test")
