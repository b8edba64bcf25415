"""Dense models (sentence-transformers' SentenceTransformer): one vector per text, pooled from any layer."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from core.data.vectors import VECTOR_COLUMN, VectorCorpus, to_parquet
from core.encoding.embedding_cache import ProgressBar, cached_embeddings_with, settings_key, stored_embeddings
from core.encoding.encoder import Embeddings, Progress, encode_with
from core.kinds.base import Applies, Kind
from core.models.loading import LoadedModel
from core.settings import Settings

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
                      quantization=True, layer_sweep=True, compare=True, drift=True, one_vector_per_text=True)

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
                                                       pd.DataFrame(index=range(len(texts))))))
        else:
            np.save(output, encoded.vectors)
        return encoded.notices + ([encoded.truncation_notice] if encoded.truncation_notice else [])
