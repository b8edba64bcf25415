"""One model measured in variants of itself, each derived from float vectors encoded once: with and without prompts,
at fewer dimensions (Matryoshka truncation, as sentence-transformers' `truncate_dim`: the first dimensions of the
final vectors), and with the corpus stored at lower precision. Every table has one row per variant, its retrieval
metrics on the task and, where STS-B vectors are given, its STS Spearman."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from core.encoding.embedding_cache import ProgressBar, cached_embeddings_with
from core.encoding.encoder import encode_with
from core.encoding.prompts import role_prompts
from core.evaluation.metrics import STS_PRIMARY, shown_name
from core.evaluation.precisions import PRECISIONS, Precision
from core.evaluation.quantization import quantized_search
from core.evaluation.retrieval import RetrievalTask, evaluate_task, ranked_metrics, ranking_depth
from core.evaluation.sts import PairRows
from core.models.loading import LoadedModel, weights_megabytes
from core.models.memo import EmbeddingMemo
from core.models.pipeline import Pipeline
from core.settings import Settings

CHECK_KS = (1, 10)
TIMING_REPEATS = 3
SWEEP_DIMENSIONS = (32, 64, 128, 256, 512, 768, 1024)
Prompts = tuple[str, str, str]  # a query's, a document's and an STS-B sentence's
TRY_INSTRUCTION = "Represent this sentence for searching relevant passages: "  # bge's retrieval instruction


@dataclass(frozen=True)
class Embedded:
    """One variant's float vectors: the task's queries and corpus, and the STS-B split's sentences (or None)."""

    queries: np.ndarray
    corpus: np.ndarray
    sentences: np.ndarray | None = None

    @property
    def width(self) -> int:
        return int(self.corpus.shape[1])


def own_prompts(pipeline: Pipeline) -> Prompts:
    """The model's query and document prompts; an STS-B sentence gets the query's, as MTEB prompts a symmetric
    task."""
    query, document = role_prompts(pipeline)
    return query, document, query


def prompt_variants(pipeline: Pipeline, typed: str) -> dict[str, Prompts]:
    """What the Prompts check compares: no prompts, the model's own (where it has any) and a `typed` instruction
    (for queries and STS-B sentences; documents keep the model's document prompt), by name."""
    query, document, _ = own_prompts(pipeline)
    variants: dict[str, Prompts] = {"without prompts": ("", "", "")}
    if query or document:
        variants["the model's prompts"] = (query, document, query)
    if typed:
        variants[f"typed: {typed!r}"] = (typed, document, typed)
    return variants


def embed_variant(model: LoadedModel, task: RetrievalTask, sts: PairRows, settings: Settings, prompts: Prompts, *,
                  progress_bar: ProgressBar = nullcontext) -> Embedded:
    """The vectors a check reads (embedded, or read from the embedding cache): the task's queries and corpus and
    the STS-B sentences, each with its prompt."""
    return Embedded(*(cached_embeddings_with(model, texts, settings.with_(prompt=prompt), progress_bar)
                      for texts, prompt in zip((task.queries, task.corpus, sts.sentences), prompts)))


def _metrics(task: RetrievalTask, queries: np.ndarray, corpus: np.ndarray) -> dict[str, float]:
    result = evaluate_task(task, queries, corpus, ks=CHECK_KS)
    return {shown_name(key): value for key, value in result.metrics.items()}


def _spearman(sts: PairRows | None, sentences: np.ndarray | None, dimensions: int | None = None) -> dict[str, float]:
    if sts is None or sentences is None:
        return {}
    return {"STS-B spearman": sts.correlation(sentences[:, :dimensions])[STS_PRIMARY]}


def prompt_check(task: RetrievalTask, variants: Mapping[str, Embedded], sts: PairRows | None = None) -> pd.DataFrame:
    """`variants`: the vectors each prompt choice gave, by a name saying which prompts were used."""
    return pd.DataFrame([{"prompts": name, **_metrics(task, v.queries, v.corpus), **_spearman(sts, v.sentences)}
                         for name, v in variants.items()])


def dimension_check(task: RetrievalTask, vectors: Embedded, dimensions: Sequence[int],
                    sts: PairRows | None = None) -> pd.DataFrame:
    """The metrics with only the first d dimensions of every vector kept, for each d."""
    return pd.DataFrame([{"dimensions": d, **_metrics(task, vectors.queries[:, :d], vectors.corpus[:, :d]),
                          **_spearman(sts, vectors.sentences, d)} for d in dimensions])


def quantization_check(task: RetrievalTask, vectors: Embedded,
                       precisions: Sequence[Precision] = tuple(PRECISIONS)) -> pd.DataFrame:
    """The metrics with the corpus stored at each precision, its bytes per vector and the search time per query."""
    return pd.DataFrame([{"precision": PRECISIONS[precision], **quantized_row(task, vectors, precision, CHECK_KS)}
                         for precision in precisions])


def quantized_row(task: RetrievalTask, vectors: Embedded, precision: Precision,
                  ks: Sequence[int]) -> dict[str, float]:
    """The metrics at k in `ks`, MRR@10 and nDCG@10 with the corpus stored at `precision`, its bytes per vector and
    the search time per query."""
    found = quantized_search(vectors.queries, vectors.corpus, precision, ranking_depth(ks), exclude=task.exclude,
                             repeat=TIMING_REPEATS)
    metrics = ranked_metrics(task, found.hits.indices, ks)
    return {**{shown_name(key): value for key, value in metrics.items()}, "bytes per vector": found.bytes_per_vector,
            "ms per query": 1000 * found.seconds / len(task.queries)}


@dataclass(frozen=True)
class Measured:
    """A model's vectors for a check, its encoding speed and the size of its weights."""

    vectors: Embedded
    texts_per_second: float
    megabytes: float


def measure(model: LoadedModel, vectors: Embedded, sample: Sequence[str], settings: Settings) -> Measured:
    """`vectors` with the model's speed on `sample` (encoded afresh: nothing read from its memo) and size."""
    fresh = replace(model, memo=EmbeddingMemo())
    start = time.perf_counter()
    encode_with(fresh, sample, settings)
    return Measured(vectors, len(sample) / (time.perf_counter() - start), weights_megabytes(model.folder))


def model_check(task: RetrievalTask, models: Mapping[str, Measured], sts: PairRows | None = None) -> pd.DataFrame:
    """Several models side by side (a teacher and the static model distilled from it): the metrics, texts/s and
    the size of the weights."""
    return pd.DataFrame([{"model": name, **_metrics(task, m.vectors.queries, m.vectors.corpus),
                          **_spearman(sts, m.vectors.sentences), "texts/s": m.texts_per_second, "MB": m.megabytes}
                         for name, m in models.items()])


def default_dimensions(width: int) -> list[int]:
    return [d for d in SWEEP_DIMENSIONS if d < width] + [width]


def parse_dimensions(text: str, width: int) -> list[int]:
    """"32, 64, 384" -> [32, 64, 384]; a value that is not a whole number from 1 to `width`, or one given twice, is
    a ValueError that says what to type."""
    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    example = ", ".join(map(str, default_dimensions(width)))
    try:
        dims = [int(part) for part in parts]
    except ValueError as err:
        raise ValueError(f"Dimensions are whole numbers separated by commas, like {example}; not {text!r}.") from err
    if not dims:
        raise ValueError(f"Give at least one number of dimensions, like {example}.")
    if wrong := [d for d in dims if not 1 <= d <= width]:
        raise ValueError(f"This model's vectors have {width} dimensions: {', '.join(map(str, wrong))} cannot be "
                         f"kept. Use values from 1 to {width}, like {example}.")
    if repeated := sorted({d for d in dims if dims.count(d) > 1}):
        raise ValueError(f"{', '.join(map(str, repeated))} is given more than once; give each number of dimensions "
                         "once.")
    return sorted(dims)
