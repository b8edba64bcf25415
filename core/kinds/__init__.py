"""One home per model kind: the registry below is the one place a model's kind is looked up. Each kind is a module of
this package implementing core.kinds.base.Kind; a fifth kind is one more module and one more entry."""

from __future__ import annotations

from typing import Any, cast

from core.kinds.base import Applies, Kind, Scores, Why
from core.kinds.dense import Dense
from core.kinds.late import Late
from core.kinds.reranker import Reranker
from core.kinds.sparse import Sparse
from core.models.catalog import ModelKind

KINDS: dict[ModelKind, Kind] = {kind.name: kind for kind in (Dense(), Sparse(), Reranker(), Late())}


def kind_of(model: Any) -> Kind:
    """The kind of a loaded model or reranker, or of a kind's name (a catalog entry's, a finetuned card's)."""
    return KINDS[cast(ModelKind, model if isinstance(model, str) else model.kind)]


__all__ = ["KINDS", "Applies", "Kind", "Scores", "Why", "kind_of"]
