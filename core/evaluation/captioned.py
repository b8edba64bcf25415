"""Retrieval over captioned images, both ways (a caption finding its image, an image its caption), with the modality
gap as it is and closed (core.analysis.modality_gap)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.analysis.modality_gap import closed
from core.analysis.search import top_k, unit_rows
from core.evaluation.metrics import retrieval_metrics, shown_name

KS = (1, 5)
DIRECTIONS = ("caption → image", "image → caption")


def captions_pair(images: np.ndarray, texts: np.ndarray) -> bool:
    """Whether the texts can be read as the images' captions, in order: as many of each, at least two."""
    return len(images) == len(texts) >= 2


def captioned_retrieval(images: np.ndarray, captions: np.ndarray) -> pd.DataFrame:
    """Caption i belongs to image i: Recall@1 and @5, MRR@10 and nDCG@10 of each direction (core.evaluation.metrics,
    equal to sentence-transformers' evaluators), the gap as it is and closed (each modality centred)."""
    rows = []
    for gap, (a, b) in (("as embedded", (images, captions)), ("gap closed", (closed(images), closed(captions)))):
        for direction, (queries, corpus) in zip(DIRECTIONS, ((b, a), (a, b)), strict=True):
            hits = top_k(unit_rows(queries), unit_rows(corpus), max(10, *KS))
            metrics = retrieval_metrics(hits.indices, [{i} for i in range(len(queries))], ks=KS)
            shown = {shown_name(key): value for key, value in metrics.items()}
            rows.append({"direction": direction, "gap": gap} | shown)
    return pd.DataFrame(rows)
