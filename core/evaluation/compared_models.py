"""Two configurations (a model and its settings) of the same texts compared: the vectors each gives, CKA between
every layer of one and every layer of the other, and two dataset folders of the same texts lined up row by row."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow.compute as pc

from core.analysis.agreement import cka_matrix
from core.analysis.layers import sentence_vectors_by_layer
from core.data.datasets import Dataset
from core.data.vectors import TEXT_COLUMN
from core.encoding.encoder import Progress
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings


def dense_only(model: LoadedModel) -> None:
    """ValueError with one sentence for a model whose vectors the measures do not compare (core.analysis.agreement)."""
    kind_of(model).check_compared(model)


def layer_vectors(model: LoadedModel, texts: Sequence[str], settings: Settings,
                  progress: Progress | None = None) -> np.ndarray:
    """Every layer's pooled vectors of the texts, (layers + 1, texts, dims), from one forward pass: the settings'
    pooling, token limit and prompt, each layer treated alike (sentence_vectors_by_layer)."""
    dense_only(model)
    return sentence_vectors_by_layer(model, texts, pooling=settings.pooling, max_length=settings.max_length,
                                     prompt=settings.prompt, progress=progress)


def layer_cka(a: tuple[LoadedModel, Settings], b: tuple[LoadedModel, Settings] | None, texts: Sequence[str],
              progress: Progress | None = None, *, b_texts: Sequence[str] | None = None) -> np.ndarray:
    """Linear CKA of every layer of configuration A (rows, 0 = embeddings) against every layer of B (columns), B
    reading `b_texts` where given (row i the counterpart of text i); without B, A against itself."""
    a_layers = layer_vectors(a[0], texts, a[1], progress)
    if b is None:
        return cka_matrix(list(a_layers))
    return cka_matrix(list(a_layers), list(layer_vectors(b[0], texts if b_texts is None else b_texts, b[1], progress)))


def aligned_datasets(a: Dataset, b: Dataset) -> tuple[np.ndarray, np.ndarray]:
    """Two dataset folders' vectors with row i the same text in both: each side ordered by its texts (ties keep the
    folder's order, and a repeated text has the same vector wherever it is), so two runs of `embed --engine ray` over
    the same inputs line up whatever order their rows were written in. ValueError when the texts differ."""
    texts = [dataset.table.column(TEXT_COLUMN) for dataset in (a, b)]
    if len(texts[0]) != len(texts[1]):
        raise ValueError(f"{a.info.name} holds {len(texts[0]):,} texts and {b.info.name} {len(texts[1]):,}; compare "
                         "two datasets of the same texts.")
    orders = [pc.sort_indices(column).to_numpy() for column in texts]  # Arrow's sort is stable
    if not pc.all(pc.equal(*(column.take(order) for column, order in zip(texts, orders)))).as_py():
        raise ValueError(f"{a.info.name} and {b.info.name} hold different texts; compare two datasets of the same "
                         "texts (embedded from the same inputs).")
    return np.asarray(a.vectors[orders[0]]), np.asarray(b.vectors[orders[1]])
