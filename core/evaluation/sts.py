"""STS-B correlation: the similarity of each pair (a dense model's cosine, a sparse or late-interaction model's own
similarity) against its gold score, overall, per genre, per layer."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from core.analysis.ranking import similarity_column
from core.analysis.search import SCORE
from core.analysis.similarity import paired_cosine
from core.analysis.terms import paired_scores
from core.data.stsb import Split, StsPair, load_stsb, stsb_sentences
from core.encoding.embedding_cache import ProgressBar, cached_embeddings, cached_sparse_with
from core.encoding.encoder import Progress, pooled_layers
from core.encoding.late.cache import cached_token_matrix
from core.encoding.late.matrix import TokenMatrix
from core.encoding.prompts import resolve_prompt
from core.evaluation.metrics import shown_name, sts_correlation
from core.models.catalog import LATE
from core.models.loading import LoadedModel
from core.settings import Pooling, Settings


@dataclass(frozen=True)
class PairRows:
    """A split's distinct sentences (each encoded once) and, per pair, the rows of its two sentences and its gold
    score."""

    split: Split
    sentences: list[str]
    first: np.ndarray
    second: np.ndarray
    gold: np.ndarray

    def correlation(self, vectors: np.ndarray) -> dict[str, float]:
        """`pearson_cosine` and `spearman_cosine` of the pairs, given one vector per sentence."""
        return sts_correlation(paired_cosine(vectors[self.first], vectors[self.second]), self.gold)


def pair_rows(split: Split) -> PairRows:
    pairs = load_stsb(split)
    sentences = stsb_sentences(split)
    row_of = {s: i for i, s in enumerate(sentences)}
    return PairRows(split, sentences, np.array([row_of[p.sentence1] for p in pairs]),
                    np.array([row_of[p.sentence2] for p in pairs]), np.array([p.score for p in pairs]))


def sts_frame(model: LoadedModel, split: Split, *, pooling: Pooling = "default", layer: int | None = None,
              max_length: int | None = None, prompt: str | None = None, truncate_dim: int | None = None,
              progress: Progress | None = None) -> pd.DataFrame:
    """One row per pair: genre, source, gold score, similarity, both sentences (each sentence encoded once, with
    `prompt`; None: the one sentence-transformers' encode gives every text, the model's default prompt). A dense
    model's similarity is the cosine (column `cosine`); a sparse model's its own (column `dot` or `cosine`), as
    SparseEmbeddingSimilarityEvaluator scores it; a late-interaction model's its own MaxSim or MeanMaxSim of sentence 1
    as the query against sentence 2 as the document (`late_pairs`). Pooling, layer and dimensions apply to neither,
    and `prompt` not to a late-interaction model: its encode_query and encode_document apply its own."""
    pairs, rows = load_stsb(split), pair_rows(split)
    prompt = resolve_prompt(model.pipeline) if prompt is None else prompt
    if model.kind == LATE:
        pair_vectors = late_pairs(model, pairs, lambda: nullcontext(progress))
        name, scores = model.late_pipeline.similarity, late_pair_scores(model, *pair_vectors)
    elif model.kind == "sparse":
        matrix = cached_sparse_with(model, rows.sentences, Settings(model_id=model.model_id, max_length=max_length,
                                                                     prompt=prompt), lambda: nullcontext(progress))
        name = model.sparse_pipeline.similarity
        scores = paired_scores(model, matrix[rows.first], matrix[rows.second])
    else:
        vectors = cached_embeddings(model, rows.sentences, pooling=pooling, layer=layer, max_length=max_length,
                                    prompt=prompt, truncate_dim=truncate_dim, progress=progress)
        name, scores = SCORE, paired_cosine(vectors[rows.first], vectors[rows.second])
    return pd.DataFrame({
        "genre": [p.genre for p in pairs], "source": [p.source for p in pairs], "gold": rows.gold, name: scores,
        "sentence 1": [p.sentence1 for p in pairs], "sentence 2": [p.sentence2 for p in pairs],
    })


def late_pairs(model: LoadedModel, pairs: Sequence[StsPair],
               progress_bar: ProgressBar = nullcontext) -> tuple[TokenMatrix, TokenMatrix]:
    """Each pair read as retrieval reads a query and a text: sentence 1 as encode_query makes it, sentence 2 as
    encode_document does (from the token-vector cache)."""
    return (cached_token_matrix(model, [p.sentence1 for p in pairs], "query", progress_bar),
            cached_token_matrix(model, [p.sentence2 for p in pairs], "document", progress_bar))


def late_pair_scores(model: LoadedModel, queries: TokenMatrix, documents: TokenMatrix) -> np.ndarray:
    """The model's own similarity of each (query, document) pair: `similarity_pairwise`, MaxSim or MeanMaxSim."""
    if not len(queries):
        return np.zeros(0, np.float32)
    as_tensors = [[torch.from_numpy(np.array(vectors)) for vectors in side.per_text()] for side in (queries, documents)]
    return model.multivector.similarity_pairwise(*as_tensors).float().cpu().numpy()


def correlation(frame: pd.DataFrame) -> dict[str, float]:
    """`pearson_<similarity>` and `spearman_<similarity>` of the pairs (NaN where every pair has the same
    similarity)."""
    name = similarity_column(frame)
    return sts_correlation(frame[name].to_numpy(), frame["gold"].to_numpy(), score=name)


def spearman(frame: pd.DataFrame) -> float:
    return correlation(frame)[f"spearman_{similarity_column(frame)}"]


def _row(frame: pd.DataFrame) -> dict[str, float]:
    return {"pairs": len(frame), **{shown_name(key): value for key, value in correlation(frame).items()}}


def by_genre(frame: pd.DataFrame) -> pd.DataFrame:
    """Spearman, Pearson and pair count for each genre and for all pairs together."""
    rows = [{"genre": genre, **_row(group)} for genre, group in frame.groupby("genre", sort=True)]
    rows.append({"genre": "all", **_row(frame)})
    return pd.DataFrame(rows)[["genre", "pairs", "spearman", "pearson"]]


def layer_sweep(model: LoadedModel, split: Split, poolings: Sequence[Pooling], *, max_length: int | None = None,
                progress: Progress | None = None) -> pd.DataFrame:
    """Spearman and Pearson at every layer (0 = embeddings) for each pooling; one forward pass per pooling,
    since the encoder pools every layer at once. A layer where every pair has the same cosine (CLS pooling at
    layer 0: every text starts with the same [CLS] embedding) has no correlation: NaN."""
    rows = []
    sentences, prompt = stsb_sentences(split), resolve_prompt(model.pipeline)
    for pooling in poolings:  # every layer pooled in one pass, so each layer below is a memo hit
        pooled_layers(model, sentences, pooling=pooling, max_length=max_length, prompt=prompt, progress=progress)
        for layer in range(model.num_layers + 1):
            frame = sts_frame(model, split, pooling=pooling, layer=layer, max_length=max_length, progress=progress)
            rows.append({"pooling": pooling, "layer": layer, **_row(frame)})
    return pd.DataFrame(rows)[["pooling", "layer", "spearman", "pearson", "pairs"]]
