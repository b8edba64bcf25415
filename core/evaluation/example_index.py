"""A built-in stale index, for the Map page's index check and its lesson: STS-B sentences whose stored vectors two
models wrote, as an index is after a team moved to a new model and embedded only the rows added since. The first two
thirds are paraphrase-MiniLM-L3-v2's (the old model; it also gives 384 dimensions, so nothing fails to load), the
rest all-MiniLM-L6-v2's; `written_by` says which, so the map can show what the check has to find."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from core.data.rows import ROW_ID, text_row_ids
from core.data.stsb import stsb_sample
from core.data.vectors import VectorCorpus
from core.encoding.encoder import encode_with
from core.models.catalog import DEFAULT_MODEL_ID, L3_ID
from core.models.loading import LoadedModel
from core.settings import Settings

EXAMPLE_ROWS = 300
OLD, NEW = L3_ID, DEFAULT_MODEL_ID
WRITTEN_BY = "written_by"


def example_index(load: Callable[[str], LoadedModel], size: int = EXAMPLE_ROWS) -> VectorCorpus:
    """`size` seeded STS-B sentences with their genre and the model that wrote each stored vector (`load` gives a
    model by id), each vector as that model's default settings give it."""
    sample = stsb_sample(size)
    texts = sample["text"].tolist()
    old = len(texts) * 2 // 3
    vectors = np.vstack([encode_with(load(model_id), part, Settings(model_id=model_id)).vectors
                         for model_id, part in ((OLD, texts[:old]), (NEW, texts[old:]))]).astype(np.float32)
    return VectorCorpus(texts, vectors, pd.DataFrame({ROW_ID: text_row_ids(texts), "genre": sample["genre"],
                                                      WRITTEN_BY: [OLD] * old + [NEW] * (len(texts) - old)}))
