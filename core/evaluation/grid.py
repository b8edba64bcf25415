"""The model × pooling × layer grid of configurations that the Evaluation page scores side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from core.settings import Pooling

LAST = "last"


@dataclass(frozen=True)
class Configuration:
    label: str
    model_id: str
    pooling: Pooling
    layer: int | None  # None: the model's last layer


def configuration_grid(depths: Mapping[str, int | None], poolings: Sequence[Pooling],
                       layers: Sequence[int | Literal["last"]], *, limit: int) -> tuple[list[Configuration], int]:
    """Every combination that exists, models first (a layer deeper than a model's `depths` entry is skipped; a
    sparse or late-interaction model, depth None, is one configuration: pooling and layer do not apply to it); the
    first `limit` of them and how many there were."""
    grid = [Configuration(model_id, model_id, "default", None) if depth is None else
            Configuration(f"{model_id} · {pooling} · layer {layer}", model_id, pooling,
                          None if layer == LAST else int(layer))
            for model_id, depth in depths.items()
            for pooling, layer in ([("default", LAST)] if depth is None else [(p, k) for p in poolings for k in layers])
            if depth is None or layer == LAST or int(layer) <= depth]
    return grid[:limit], len(grid)
