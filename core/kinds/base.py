"""What a model kind is and does, written once: the interface each kind's module implements (core.kinds.dense,
sparse, reranker, late), and what pages, commands and lessons ask of it instead of comparing kinds themselves."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import Progress, TokenStates
from core.models.catalog import ModelKind
from core.models.loading import LoadedModel
from core.settings import Settings

if TYPE_CHECKING:  # what the kinds' answers are made of; imported where they are computed, so `embed` loads none
    import pandas as pd
    import plotly.graph_objects as go

    from core.analysis.layers import Drift, Word
    from core.analysis.ranking import AnyRanker
    from core.analysis.similarity import Metric


@dataclass(frozen=True)
class Applies:
    """The choices that shape a model's vectors or what is measured of them, and whether each applies to a kind: none
    unless a kind says so."""

    layer: bool = False  # a sentence vector from another layer than the last
    pooling: bool = False  # a pooling other than the model's own
    prompts: bool = False  # a typed or named prompt, or none of the model's own
    dimensions: bool = False  # Matryoshka truncation
    normalize: bool = False  # scaling each vector to unit length
    max_length: bool = False  # where a text is cut
    quantization: bool = False  # int8 or binary codes of the vectors
    layer_sweep: bool = False  # Evaluation's sentence vector of every layer against STS-B
    compare: bool = False  # CKA, Procrustes and the layer × layer CKA of two spaces
    drift: bool = False  # Fine-tune's drift curve and before/after of sentence vectors
    one_vector_per_text: bool = False  # a text is one vector (a map point, a lesson's); else one per token, or none
    metric: bool = False  # Similarity's choice of cosine, dot product or Euclidean distance (else the model's own)


@dataclass(frozen=True)
class Scores:
    """Every text scored against every text, as the Similarity page draws them."""

    matrix: np.ndarray
    order: list[int] | None  # the cluster order, when asked for
    metric: Metric  # how the heatmap reads its values: "cosine", "dot" or "euclidean"
    value_name: str | None  # the score's name, where not the metric's (MaxSim)
    note: str  # how to read rows and columns, where they are not alike ("" where they are)
    found: Any  # what the kind computed: core.analysis.similarity.TextSimilarity (what was cut) or a LateSimilarity


@dataclass(frozen=True)
class Why:
    """Why two texts score what they score, as the Similarity page's "Why are these two similar?" shows it.

    `score`: the pair's score (the cosine; a sparse model's own similarity; A's MaxSim as a query for B).
    `figure`: the main figure (dense: the token × token contributions, or A's integrated-gradients attributions;
    sparse: the shared terms' shares; late interaction: the MaxSim alignment); `figures`: every figure the page draws,
    by name. `table`: the numbers (dense: every token pair's contribution, or every token's attribution; sparse: every
    shared term; late: every query token's best match), which sum to the score (integrated gradients: to its change
    from the baseline, up to the gap). `result`: the core object (core.analysis.explanation.PairExplanation,
    core.analysis.attribution.PairAttribution, core.analysis.terms.TermSplit or
    core.analysis.late.alignment.Alignment). In a notebook it shows as its figure."""

    score: float
    figure: go.Figure
    figures: dict[str, go.Figure]
    table: pd.DataFrame
    result: Any

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return self.figure._repr_mimebundle_(include, exclude, **kwargs)


# the command-line option of each choice, as every command spells it
OPTIONS: dict[str, tuple[str, ...]] = {
    "layer": ("--layer",), "normalize": ("--normalize",), "max_length": ("--max-length",),
    "dimensions": ("--truncate-dim",), "prompts": ("--prompt", "--prompt-name", "--no-prompts"),
    "quantization": ("--quantize",)}


class Kind:
    """One model kind. Its facts are class attributes; what depends on the model at hand takes it."""

    name: ClassVar[ModelKind]
    article: ClassVar[str]  # "a sparse model": how a sentence names a model of this kind
    why_refused: ClassVar[str] = ""  # said after `article` when an option is refused, e.g. ", whose token vectors …"
    sentence: ClassVar[str]  # what the kind is, in one sentence, as the sidebar, Home and Model say it
    stored_as: ClassVar[str]  # what is kept for each text of a corpus (in the cache, and in a dataset's rows)
    schema: ClassVar[pa.Schema]  # the Parquet columns `embed` writes for each text besides it (Ray's too)
    suffixes: ClassVar[tuple[str, ...]]  # the files `embed --output` writes
    unlike_dense: ClassVar[str] = ""  # why its vectors are not one array, e.g. "its vectors are … mostly zero"
    files: ClassVar[str]  # those files in words, e.g. ".npz (a scipy CSR matrix) or .parquet (indices and values)"
    fixed_scale: ClassVar[bool]  # whether its scores have a fixed range (a cosine's -1 to 1) a threshold can cut
    applies: ClassVar[Applies]
    positive_only: ClassVar[bool] = False  # a score of 0 shares nothing with the query: only above 0 is a hit
    token_vectors: ClassVar[bool] = False  # scored from one vector per token (a token matrix per text)
    layer_vectors: ClassVar[str] = ""  # what Layers' sentence drift compares, where not a pooling's vectors
    # what a probe reads of each text, where not each layer's pooled vector
    layered_note: ClassVar[str] = ""
    # why a probe of this kind's vectors has no untrained baseline (its vectors are not its layers' own)
    untrained_note: ClassVar[str] = ("its probe reads its output, which a model of random weights of its "
                                     "architecture does not give as it does, so no untrained baseline is drawn.")
    sets_note: ClassVar[str] = ""  # what a comparison of two sets reads of each text, where not its pooled vector
    # why a text's sentence vector is not followed across layers, where `vectors_by_layer` gives none
    no_sentence_drift: ClassVar[str] = ""
    hit_floor: ClassVar[float] = 0.0  # the score a hit must beat where the scores have no fixed scale
    # why CKA and Procrustes do not compare its vectors; {model}: the model's id, {dimensions}: its vectors' width
    uncompared: ClassVar[str] = "{model} is {article}, not a dense one; compare two dense models."

    @property
    def embeds(self) -> bool:
        """Whether it gives vectors of its own at all (a reranker scores pairs)."""
        return self.applies.one_vector_per_text or self.token_vectors

    def space_width(self, model: LoadedModel) -> int:
        """The dimensions of the space the map and its neighbours read."""
        return model.dimensions

    def score_name(self, model: LoadedModel) -> str:
        """What the model's scores are, by the names core.evaluation.metrics keys its metrics with."""
        raise NotImplementedError

    def symmetric(self, model: LoadedModel) -> bool:
        """Whether score(a, b) = score(b, a): no query side of its own, no query-against-document reading."""
        raise NotImplementedError

    def encode(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, batch_size: int = 32,
               progress: Progress | None = None) -> Any:
        """The texts' vectors for `settings.role`: an Embeddings (an array), a SparseEmbeddings (CSR rows) or a list
        of TokenVectors (a token matrix each)."""
        raise self._no_vectors(model)

    def cache_key(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
        """What a corpus's stored vectors are found by: the model, the texts and the settings that shape them."""
        raise self._no_vectors(model)

    def stored_corpus(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> Any:
        """The texts' vectors for `settings.role` if they are in memory or on disk already, else None."""
        raise self._no_vectors(model)

    def cached(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
               progress_bar: ProgressBar = nullcontext) -> Any:
        """The texts' vectors for `settings.role`, read-only: an array, CSR rows or a TokenMatrix, from memory or
        disk, else encoded (under `progress_bar()`) and stored first."""
        raise self._no_vectors(model)

    def corpus_work(self, model: LoadedModel, count: int, settings: Settings) -> str:
        """What encoding a corpus of `count` texts is called while it runs."""
        return f"Embedding {count:,} texts with {model.model_id}"

    def text_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                     progress_bar: ProgressBar = nullcontext) -> np.ndarray | sp.csr_matrix:
        """One vector a text for `settings.role`, read-only and kept on disk as `cached` keeps a corpus: what a map,
        a probe or a comparison of two sets reads."""
        raise self._no_vectors(model)

    def query_vector(self, model: LoadedModel, query: str, settings: Settings) -> np.ndarray | sp.csr_matrix:
        """`query` as one row (1, dims) in the space of `text_vectors`, not kept."""
        raise self._no_vectors(model)

    def vectors_by_layer(self, model: LoadedModel, texts: Sequence[str], *, pooling: str, max_length: int | None = None,
                      prompt: str = "", progress: Progress | None = None) -> np.ndarray | None:
        """Each text's vector at every layer, (layers + 1, texts, dims), from one forward pass, each layer treated
        alike; None where the kind has no sentence vector at its layers."""
        return None

    def layered_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                        layers: Sequence[int] | None = None,
                        progress: Progress | None = None) -> dict[int, np.ndarray | sp.csr_matrix]:
        """One vector a text at each layer that has one (all of them, or `layers`), from one pass: what a probe of
        what each layer knows reads. A kind without a sentence vector at its layers gives its output alone, as
        `text_vectors` (`layered_note` says so), and refuses other layers in one sentence."""
        last = model.num_layers
        if layers is not None and list(layers) != [last]:
            raise ValueError(f"{model.model_id} is {self.article}: {self.layered_note} Leave the layers out.")
        return {last: self.text_vectors(model, texts, settings)}

    def untrained(self, model: LoadedModel) -> LoadedModel:
        """The model's architecture with seeded random weights, whose `layered_vectors` are a probe's baseline;
        ValueError in one sentence where it cannot be rebuilt so."""
        raise ValueError(f"{model.model_id} is {self.article}: {self.untrained_note}")

    def drift(self, model: LoadedModel, states: Sequence[TokenStates], chosen: Sequence[Word | None], *, pooling: str,
              max_length: int | None = None) -> Drift:
        """The Layers page's curves of the texts of `states`: each chosen word's, and each text's vector of each
        layer (`vectors_by_layer`)."""
        from core.analysis.layers import drift_texts, layer_drift

        texts, prompt = drift_texts(states)
        return layer_drift(model, states, chosen, self.vectors_by_layer(model, texts, pooling=pooling,
                                                                     max_length=max_length, prompt=prompt))

    def ranker(self, model: LoadedModel, query: str, corpus: Any, settings: Settings, depth: int) -> AnyRanker:
        """The model's ranking of `query` (encoded with `settings`: its query prompt and role) over `corpus`, the
        vectors `cached` gave of the corpus's texts as documents; a list ranked whole keeps its best `depth`."""
        raise self._no_vectors(model)

    def similarity(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, metric: Metric | None = None,
                   reorder: bool = False, progress: Progress | None = None) -> Scores:
        """Every text against every text, as the Similarity page measures them: by `metric` where the kind lets one
        be chosen (else by the model's own similarity: ValueError for another), clustered when `reorder`."""
        raise self._no_vectors(model)

    def why(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None) -> Why:
        """Why `a` and `b` score what they score, as the Similarity page explains a pair, at `layer` where the kind
        has layers (None: the settings')."""
        raise self._no_vectors(model)

    def attributed(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None,
                   steps: int) -> Why:
        """Integrated gradients of the pair's score (`steps` steps), where the kind offers them."""
        raise ValueError(f"{model.model_id} is {self.article}: integrated gradients explain a dense model's cosine; "
                         "leave method out for its own explanation.")

    def check_compared(self, model: LoadedModel) -> None:
        """ValueError with one sentence where the measures of two spaces (CKA, Procrustes, neighbour overlap:
        core.analysis.agreement) do not compare this kind's vectors."""
        if not self.applies.compare:
            raise ValueError(self.uncompared.format(model=model.model_id, article=self.article,
                                                    dimensions=model.dimensions))

    def _own_metric(self, model: LoadedModel, metric: Metric | None) -> None:
        """ValueError where a metric is asked of a model measured by its own similarity only."""
        own = self.score_name(model)
        if metric is not None and metric != own:
            raise ValueError(f"{model.model_id} is {self.article}: the Similarity page measures it by its own "
                             f"similarity ({own}); leave metric out.")

    def check_embeds(self, model: LoadedModel) -> None:
        """ValueError with one sentence where the kind gives no vectors of its own (a reranker)."""
        if not self.embeds:
            raise self._no_vectors(model)

    def _no_vectors(self, model: LoadedModel) -> ValueError:
        return ValueError(f"{model.model_id} is {self.article}{self.why_refused}: it gives no vectors to keep.")

    def columns(self, model: LoadedModel, encoded: Any) -> list[pa.Array]:
        """What `encode` gave as the arrays of `schema`, one row per text."""
        raise NotImplementedError

    def check_output(self, model: LoadedModel, output: Path) -> None:
        """ValueError with one sentence where `embed --output` names a file this kind does not write."""
        if output.suffix.lower() not in self.suffixes:
            raise ValueError(f"{model.model_id} is {self.article}: {self.unlike_dense}, so write them as {self.files}, "
                             f"not {output.suffix or 'a file without a suffix'}.")

    def write(self, model: LoadedModel, texts: list[str], encoded: Any, output: Path) -> list[str]:
        """Write what `encode` gave to `output` (checked by `check_output`); the notes to print."""
        raise NotImplementedError

    def refused(self, model: LoadedModel, given: dict[str, Any]) -> str | None:
        """One sentence naming each option given (by its flag, with its value) that does not apply to this kind, with
        the remedy; None when all apply. `given` maps a flag such as "--layer" to its value (None or False: not
        given); "--pooling" counts only when it is not "default"."""
        asked = [flag for name, flags in OPTIONS.items() if not getattr(self.applies, name) for flag in flags
                 if given.get(flag) is not None and given.get(flag) is not False]  # --layer 0 is given
        pooling = given.get("--pooling")
        if not self.applies.pooling and pooling not in (None, "default"):
            asked.insert(0, f"--pooling {pooling}")
        if not asked:
            return None
        them = "them" if len(asked) > 1 else "it"
        return (f"{_listed(asked)} {'do' if len(asked) > 1 else 'does'} not apply to {self.article}{self.why_refused}; "
                f"leave {them} out.")

    def refused_flags(self) -> list[str]:
        """Every flag this kind refuses (pooling counted as `--pooling`)."""
        flags = [flag for name, flags in OPTIONS.items() if not getattr(self.applies, name) for flag in flags]
        return (["--pooling"] if not self.applies.pooling else []) + flags


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

