"""What a late-interaction model stores: a float32 vector per kept token of every document, beside the one vector a
dense model on the same transformer keeps. Counted from the tokenizer alone (no forward pass), as encode_document
keeps them: the document prompt or marker, the cut at the document length, the skiplist's drops; where the model
pools its document tokens, the most the pooling keeps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.analysis.late.alignment import BYTES_PER_VALUE
from core.encoding.late.tokens import role_prompt, skipped_ids
from core.models.loading import LoadedModel
from core.progress import byte_size


@dataclass(frozen=True)
class Storage:
    """The token vectors of `texts` documents, `width` float32 values each, against one `dense_width` vector per text;
    `at_most`: the model pools its document tokens, so `vectors` is the most it keeps (ties can merge more)."""

    texts: int
    vectors: int
    width: int
    dense_width: int
    at_most: bool = False

    @property
    def bytes(self) -> int:
        return self.vectors * self.width * BYTES_PER_VALUE

    @property
    def dense_bytes(self) -> int:
        return self.texts * self.dense_width * BYTES_PER_VALUE

    @property
    def per_text(self) -> float:
        """Mean vectors per document."""
        return self.vectors / max(self.texts, 1)

    @property
    def ratio(self) -> float:
        """How many times a dense vector per text this takes."""
        return self.bytes / max(self.dense_bytes, 1)


def _pooled(counts: np.ndarray, model: LoadedModel) -> tuple[np.ndarray, bool]:
    """The counts after the model's document token pooling: HierarchicalTokenPooling's cluster count (its protected
    leading tokens kept, the rest cut to 1 in `pool_factor`); any other pooling merges, so the counts before it bound
    what it keeps."""
    from sentence_transformers.multi_vector_encoder.modules import BaseTokenPooling, HierarchicalTokenPooling

    pooling = next((m for m in model.multivector if isinstance(m, BaseTokenPooling) and m.applies_to("document")),
                   None)
    if pooling is None:
        return counts, False
    if isinstance(pooling, HierarchicalTokenPooling) and pooling.pool_factor > 1:
        protected = np.minimum(counts, pooling.num_protected_tokens)
        rest = counts - protected
        clusters = np.maximum((rest // pooling.pool_factor).astype(int), 1)
        counts = protected + np.minimum(clusters, rest)
    return counts, True


def document_vectors(model: LoadedModel, texts: Sequence[str]) -> tuple[np.ndarray, bool]:
    """How many vectors encode_document keeps for each text, from the tokenizer alone; True where the model pools
    document tokens and the counts are the most it keeps."""
    if not texts:
        return np.zeros(0, int), False
    prompt = role_prompt(model, "document")
    ids = model.tokenizer([prompt + text for text in texts], truncation=True,
                          max_length=model.late_pipeline.document_length)["input_ids"]
    skipped = skipped_ids(model, "document")
    counts = np.array([sum(token not in skipped for token in row) for row in ids], int)
    return _pooled(counts, model)


def corpus_storage(model: LoadedModel, texts: Sequence[str]) -> Storage:
    """The documents' token vectors against one vector per text of the transformer's hidden size (what a dense model
    on the same transformer stores)."""
    counts, at_most = document_vectors(model, texts)
    return Storage(len(texts), int(counts.sum()), model.late_pipeline.width, model.hidden_size, at_most)


def storage_sentence(storage: Storage, corpus: str) -> str:
    """One sentence: the corpus's token vectors against a dense vector per text."""
    most = "at most " if storage.at_most else ""
    return (f"{corpus} ({storage.texts:,} texts) stored as documents: {most}{storage.vectors:,} token vectors "
            f"({storage.per_text:.1f} a text) × {storage.width} float32 = {most}{byte_size(storage.bytes)}, "
            f"{storage.ratio:.1f}× the {byte_size(storage.dense_bytes)} of one {storage.dense_width}-dimension vector "
            "a text (a dense model on the same transformer).")


def storage_table(storage: Storage) -> pd.DataFrame:
    """The two ways of storing the corpus side by side: vectors a text, their width, bytes a text, the whole."""
    most = "at most " if storage.at_most else ""
    return pd.DataFrame({
        "vectors a text": [f"{most}{storage.per_text:.1f} (one per kept token)", "1"],
        "dimensions": [storage.width, storage.dense_width],
        "bytes a text": [most + byte_size(storage.bytes / max(storage.texts, 1)),
                         byte_size(storage.dense_width * BYTES_PER_VALUE)],
        f"{storage.texts:,} texts": [most + byte_size(storage.bytes), byte_size(storage.dense_bytes)],
    }, index=pd.Index(["late interaction", "dense, one vector"], name="stored as"))
