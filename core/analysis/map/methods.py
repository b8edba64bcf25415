"""The map's projection methods by name: what core.analysis.map.projection fits and the command line's --method
offers. It imports nothing, so that building the command line's parser loads no projection library."""

from __future__ import annotations

from typing import Literal

Method = Literal["PCA", "t-SNE", "UMAP"]
METHODS: tuple[Method, ...] = ("PCA", "t-SNE", "UMAP")
