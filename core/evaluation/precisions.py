"""The precisions a corpus can be stored at, with their labels: what core.evaluation.quantization searches and the
command line's --quantize offers. It imports nothing, so that building the command line's parser loads no numpy."""

from __future__ import annotations

from typing import Literal

Precision = Literal["float32", "int8", "binary", "binary-rescore"]
RESCORE_MULTIPLIER = 4  # candidates kept per result for rescoring, as sentence-transformers' quantization demo
PRECISIONS: dict[Precision, str] = {
    "float32": "float32",
    "int8": "int8",
    "binary": "binary",
    "binary-rescore": f"binary, top {RESCORE_MULTIPLIER}×k rescored",
}
