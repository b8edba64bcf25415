"""Sparse models (sentence-transformers' SparseEncoder, SPLADE): one vocabulary-wide vector per text, mostly zero,
scored by the model's own similarity over the terms two texts share."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from core.data.sparse_vectors import INDICES_COLUMN, VALUES_COLUMN, sparse_columns, sparse_parquet
from core.encoding.embedding_cache import ProgressBar, cached_sparse_with, sparse_key, stored_sparse
from core.encoding.encoder import Progress
from core.encoding.sparse import SparseEmbeddings, encode_sparse
from core.kinds.base import Applies, Kind, Scores, Why
from core.models.loading import LoadedModel
from core.settings import Settings

if TYPE_CHECKING:
    from core.analysis.ranking import Ranker
    from core.analysis.similarity import Metric


class Sparse(Kind):
    name = "sparse"
    article = "a sparse model"
    sentence = ("Sparse: each text becomes one vector as wide as the vocabulary, mostly zero (a weight per term it "
                "turns on); two texts score by the model's own similarity over the terms they share.")
    stored_as = "one sparse row per text (its active terms and their weights)"
    schema = pa.schema([(INDICES_COLUMN, pa.list_(pa.int32())), (VALUES_COLUMN, pa.list_(pa.float32()))])
    suffixes = (".npz", ".parquet")
    unlike_dense = "its vectors are as wide as its vocabulary and mostly zero"
    files = ".npz (a scipy CSR matrix) or .parquet (indices and values)"
    fixed_scale = False  # a dot product of term weights: a text that shares a term with the query scores above 0
    applies = Applies(prompts=True, max_length=True, one_vector_per_text=True)

    layer_vectors = "SPLADE vectors of each layer"
    positive_only = True
    layered_note = ("it is probed on its CSR rows, its output: a sparse model has no pooled sentence vector at its "
                    "other layers to compare.")
    sets_note = ("its two sets are compared on its CSR rows, its output, and MMD uses a linear kernel (the dot "
                 "product) on them.")
    uncompared = ("{model} is a sparse model: its vectors are {dimensions:,} wide and mostly zero, and CKA and "
                  "Procrustes compare dense spaces; compare two dense models (or one dense model's layers or "
                  "poolings).")

    def score_name(self, model: LoadedModel) -> str:
        return model.sparse_pipeline.similarity

    def symmetric(self, model: LoadedModel) -> bool:
        return model.sparse_pipeline.query_side is None

    def encode(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, batch_size: int = 32,
               progress: Progress | None = None) -> SparseEmbeddings:
        return encode_sparse(model, texts, role=settings.role, prompt=settings.prompt, max_length=settings.max_length,
                             batch_size=batch_size, progress=progress)

    def cache_key(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
        return sparse_key(model, texts, settings)

    def stored_corpus(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> sp.csr_matrix | None:
        return stored_sparse(model, texts, settings)

    def cached(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
               progress_bar: ProgressBar = nullcontext) -> sp.csr_matrix:
        return cached_sparse_with(model, texts, settings, progress_bar)

    def text_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                     progress_bar: ProgressBar = nullcontext) -> sp.csr_matrix:
        return self.cached(model, texts, settings, progress_bar)

    def query_vector(self, model: LoadedModel, query: str, settings: Settings) -> sp.csr_matrix:
        return encode_sparse(model, [query], role=settings.role, prompt=settings.prompt,
                             max_length=settings.max_length).matrix

    def vectors_by_layer(self, model: LoadedModel, texts: Sequence[str], *, pooling: str, max_length: int | None = None,
                      prompt: str = "", progress: Progress | None = None) -> np.ndarray:
        """Its masked-LM head and SPLADE pooling applied to each layer (a page's few texts, held dense)."""
        from core.analysis.layer_terms import layer_terms

        return layer_terms(model, texts, max_length=max_length, prompt=prompt).dense()

    def ranker(self, model: LoadedModel, query: str, corpus: sp.csr_matrix, settings: Settings,
               depth: int) -> Ranker:
        """By its own similarity; a text it scores 0 shares nothing with the query and is no hit."""
        from core.analysis.ranking import Ranker
        from core.analysis.terms import scored_rows

        return Ranker(scored_rows(model, self.query_vector(model, query, settings)), scored_rows(model, corpus),
                      lexical=True, score=self.score_name(model))

    def similarity(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, metric: Metric | None = None,
                   reorder: bool = False, progress: Progress | None = None) -> Scores:
        """By its own similarity; clustered, when asked, by the cosine distance of the sparse rows."""
        from core.analysis.terms import sparse_similarity

        self._own_metric(model, metric)
        found = sparse_similarity(model, texts, settings, reorder=reorder, progress=progress)
        own = self.score_name(model)
        return Scores(found.matrix, found.order, "cosine" if own == "cosine" else "dot", None, "", found)

    def why(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None) -> Why:
        """The split of its score over the terms both texts hold."""
        from core.analysis.terms import explain_terms
        from core.plots.terms import split_figure

        split = explain_terms(model, a, b, (settings, settings))
        figure = split_figure(split)
        return Why(split.score, figure, {"terms": figure}, split.table, split)

    def columns(self, model: LoadedModel, encoded: SparseEmbeddings) -> list[pa.Array]:
        return list(sparse_columns(encoded.matrix))

    def write(self, model: LoadedModel, texts: list[str], encoded: SparseEmbeddings, output: Path) -> list[str]:
        if output.suffix.lower() == ".npz":
            sp.save_npz(output, encoded.matrix)
        else:
            output.write_bytes(sparse_parquet(texts, encoded.matrix))
        return [f"{len(encoded.truncated)} text(s) were longer than {encoded.limit} tokens and were cut at that limit."
                ] if encoded.truncated else []
