"""The models this process holds in memory (loaded and not yet freed), by the folder each was loaded from: what
must not be deleted from under a page that still reads its folder (a lesson's check, a distillation, a page's
figures)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Protocol, TypeVar


class FromFolder(Protocol):
    folder: Path


Model = TypeVar("Model", bound=FromFolder)

_HELD: weakref.WeakValueDictionary[int, FromFolder] = weakref.WeakValueDictionary()


def keep_track(model: Model) -> Model:
    """`model`, noted as held until it is freed."""
    _HELD[id(model)] = model
    return model


def folders_in_memory() -> set[Path]:
    """The folders of the models held now (resolved). A model a cache let go of may wait for the garbage collector
    (a network's modules can refer to each other), so it collects first: a freed model is no longer held."""
    gc.collect()
    return {model.folder.resolve() for model in list(_HELD.values())}
