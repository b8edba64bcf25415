"""Dense models (sentence-transformers' SentenceTransformer): one vector per text, pooled from any layer."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from core.data.rows import ROW_ID, text_row_ids
from core.data.vectors import VECTOR_COLUMN, VectorCorpus, to_parquet
from core.encoding.embedding_cache import ProgressBar, cached_embeddings_with, settings_key, stored_embeddings
from core.encoding.encoder import Embeddings, Progress, checked_layer, encode_with
from core.kinds.base import Applies, Kind, Scores, Why
from core.models.loading import LoadedModel, untrained_copy
from core.settings import Settings, layer_used

if TYPE_CHECKING:
    from core.analysis.ranking import Ranker
    from core.analysis.similarity import Metric

COSINE = "cosine"  # what a dense model's scores are


class Dense(Kind):
    name = "dense"
    article = "a dense model"
    sentence = ("Dense: each text becomes one vector, pooled from the token vectors of a layer; two texts score by the "
                "cosine.")
    stored_as = "one float32 vector per text"
    schema = pa.schema([(VECTOR_COLUMN, pa.list_(pa.float32()))])
    suffixes = (".npy", ".parquet")
    files = ".npy or .parquet (text and vector columns)"
    fixed_scale = True
    applies = Applies(layer=True, pooling=True, prompts=True, dimensions=True, normalize=True, max_length=True,
                      quantization=True, layer_sweep=True, compare=True, drift=True, one_vector_per_text=True,
                      metric=True)

    def space_width(self, model: LoadedModel) -> int:
        return model.hidden_size

    def score_name(self, model: LoadedModel) -> str:
        return COSINE

    def symmetric(self, model: LoadedModel) -> bool:
        return True

    def encode(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, batch_size: int = 32,
               progress: Progress | None = None) -> Embeddings:
        return encode_with(model, texts, settings, batch_size=batch_size, progress=progress)

    def cache_key(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
        return settings_key(model, texts, settings)

    def stored_corpus(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> np.ndarray | None:
        return stored_embeddings(model, texts, settings)

    def cached(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
               progress_bar: ProgressBar = nullcontext) -> np.ndarray:
        return cached_embeddings_with(model, texts, settings, progress_bar)

    def text_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                     progress_bar: ProgressBar = nullcontext) -> np.ndarray:
        return self.cached(model, texts, settings, progress_bar)

    def query_vector(self, model: LoadedModel, query: str, settings: Settings) -> np.ndarray:
        return encode_with(model, [query], settings).vectors

    def vectors_by_layer(self, model: LoadedModel, texts: Sequence[str], *, pooling: str, max_length: int | None = None,
                         prompt: str = "", progress: Progress | None = None) -> np.ndarray:
        from core.analysis.layers import sentence_vectors_by_layer

        return sentence_vectors_by_layer(model, texts, pooling=pooling, max_length=max_length, prompt=prompt,
                                         progress=progress)

    def layered_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                        layers: Sequence[int] | None = None, progress: Progress | None = None) -> dict[int, np.ndarray]:
        """Each layer's pooled vectors (the settings' pooling, token limit and prompt), every layer treated alike."""
        from core.analysis.layers import sentence_vectors_by_layer

        chosen = list(range(model.num_layers + 1)) if layers is None else [checked_layer(model, k) for k in layers]
        return dict(zip(chosen, sentence_vectors_by_layer(model, texts, pooling=settings.pooling,
                                                          max_length=settings.max_length, prompt=settings.prompt,
                                                          layers=chosen, progress=progress)))

    def untrained(self, model: LoadedModel) -> LoadedModel:
        if model.static:
            raise ValueError(f"{model.model_id} is a static model: its token vectors are all its weights, and random "
                             "ones make a bag of random word vectors, which the TF-IDF line stands for already, so no "
                             "untrained baseline is drawn.")
        return untrained_copy(model)

    def ranker(self, model: LoadedModel, query: str, corpus: np.ndarray, settings: Settings, depth: int) -> Ranker:
        """By the cosine: the query's vector and the corpus's, scaled to unit length."""
        from core.analysis.ranking import Ranker

        return Ranker.dense(self.query_vector(model, query, settings), np.asarray(corpus))

    def similarity(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, metric: Metric | None = None,
                   reorder: bool = False, progress: Progress | None = None) -> Scores:
        from core.analysis.similarity import METRICS, text_similarity

        chosen: Metric = metric or "cosine"
        if chosen not in METRICS:
            raise ValueError(f"Unknown metric {chosen!r}; choose one of {', '.join(METRICS)}.")
        found = text_similarity(model, texts, settings, metric=chosen, reorder=reorder, progress=progress)
        return Scores(found.matrix, found.order, chosen, None, "", found)

    def why(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None) -> Why:
        """The exact split of the cosine over token pairs (a pooling without one, such as cls, raises
        core.analysis.explanation.NoExactSplit)."""
        from core.analysis.explanation import explain_pair, reference_texts
        from core.plots.explanation import contribution_heatmap, split_bar, token_strip

        at = checked_layer(model, layer_used(settings.layer if layer is None else layer, model.num_layers))
        explanation = explain_pair(model, a, b, pooling=settings.pooling, layer=at, max_length=settings.max_length,
                                   prompt=settings.prompt, reference=reference_texts())
        figures = {"contributions": contribution_heatmap(explanation),
                   "tokens of A": token_strip(explanation.a, name="A"),
                   "tokens of B": token_strip(explanation.b, name="B"), "split": split_bar(explanation)}
        return Why(explanation.score, figures["contributions"], figures, explanation.frame(), explanation)

    def attributed(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None,
                   steps: int) -> Why:
        """A's tokens with B fixed and B's with A fixed, from the middle layer (or the scored one, if lower), as the
        page's "Attribution through the network" runs them."""
        from core.analysis.attribution import attribute_pair
        from core.plots.explanation import attribution_bars

        at = checked_layer(model, layer_used(settings.layer if layer is None else layer, model.num_layers))
        result = attribute_pair(model, a, b, pooling=settings.pooling, layer=at,
                                attribution_layer=min(model.num_layers // 2, at), steps=steps,
                                max_length=settings.max_length)
        figures = {"A": attribution_bars(result.a, name="A (B fixed)"),
                   "B": attribution_bars(result.b, name="B (A fixed)")}
        table = pd.concat([result.a.frame().assign(text="A"), result.b.frame().assign(text="B")], ignore_index=True)
        return Why(result.a.score, figures["A"], figures, table, result)

    def check_output(self, model: LoadedModel, output: Path) -> None:
        """Any file: .parquet is written as Parquet, anything else by numpy's save."""

    def columns(self, model: LoadedModel, encoded: Embeddings) -> list[pa.Array]:
        """One list of floats per text, without a copy per row."""
        flat = pa.array(np.ascontiguousarray(encoded.vectors, dtype=np.float32).ravel())
        offsets = pa.array(np.arange(0, len(flat) + 1, encoded.vectors.shape[1], dtype=np.int32))
        return [pa.ListArray.from_arrays(offsets, flat)]

    def write(self, model: LoadedModel, texts: list[str], encoded: Embeddings, output: Path) -> list[str]:
        if output.suffix.lower() == ".parquet":  # the layout Embedding Atlas and the map's import read
            output.write_bytes(to_parquet(VectorCorpus(texts, encoded.vectors,
                                                       pd.DataFrame({ROW_ID: text_row_ids(texts)}))))
        else:
            np.save(output, encoded.vectors)
        return encoded.notices + ([encoded.truncation_notice] if encoded.truncation_notice else [])
