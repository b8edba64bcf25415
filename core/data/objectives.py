"""The training objectives by name: what core.data.pairs prepares pairs for and the command line's --objective
offers. It imports nothing, so that building the command line's parser loads no data library."""

from __future__ import annotations

from typing import Literal

Objective = Literal["cosine", "mnrl", "reranker", "multi-vector"]
OBJECTIVES: tuple[Objective, ...] = ("cosine", "mnrl", "reranker", "multi-vector")
