"""The space a map is drawn from: one vector a row, as the model's kind gives it for a document (core.kinds:
`text_vectors`), each distinct text computed once; a sparse model's CSR rows reduced by TruncatedSVD first; and a
query placed in the same space."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from core.analysis.map.clusters import spherize
from core.analysis.map.sparse_space import SparseReduction, reduce_sparse
from core.data.rows import distinct
from core.encoding.embedding_cache import ProgressBar
from core.encoding.prompts import with_role
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings


@dataclass(frozen=True)
class MapSpace:
    """One vector a row, where the map and its neighbours are measured, and the reduction a sparse model's vectors
    (a query's too) go through first."""

    vectors: np.ndarray
    reduction: SparseReduction | None = None

    def place(self, row: np.ndarray | sp.csr_matrix) -> np.ndarray:
        """One vector of the model's own space (a row of `text_vectors`' kind) in this one."""
        return self.reduction.place(row)[0] if self.reduction is not None else np.asarray(row)[0]


def as_space(found: np.ndarray | sp.csr_matrix, rows: np.ndarray | None = None) -> MapSpace:
    """The vectors of each distinct text (`text_vectors`' answer, or a file's) as the map's space, one a row."""
    reduction = reduce_sparse(found) if sp.issparse(found) else None
    vectors = reduction.vectors if reduction is not None else np.asarray(found)
    return MapSpace(vectors if rows is None else vectors[rows], reduction)


def documents(model: LoadedModel, settings: Settings) -> Settings:
    """The settings a map's texts are encoded with: as documents, with the model's document prompt."""
    return with_role(settings, model.pipeline, "document")


def model_space(model: LoadedModel, texts: Sequence[str], settings: Settings,
                progress_bar: ProgressBar = nullcontext) -> MapSpace:
    """The texts' map space under `settings`, each distinct text encoded once (and kept on disk)."""
    kind, unique = kind_of(model), distinct(texts)
    kind.check_embeds(model)
    return as_space(kind.text_vectors(model, unique.texts, documents(model, settings), progress_bar), unique.rows)


def query_point(model: LoadedModel, query: str, settings: Settings, space: MapSpace, *,
                centre: np.ndarray | None = None) -> np.ndarray:
    """`query` in the map's space: encoded as a query (the model's query prompt and role), reduced as the corpus was,
    then spherized on `centre` (the mean of the corpus's vectors before they were) when given."""
    vector = space.place(kind_of(model).query_vector(model, query, with_role(settings, model.pipeline, "query")))
    return vector if centre is None else spherize(vector[None], centre=centre)[0]
