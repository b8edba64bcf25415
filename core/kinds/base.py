"""What a model kind is and does, written once: the interface each kind's module implements (core.kinds.dense,
sparse, reranker, late), and what pages, commands and lessons ask of it instead of comparing kinds themselves."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pyarrow as pa

from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import Progress
from core.models.catalog import ModelKind
from core.models.loading import LoadedModel
from core.settings import Settings


@dataclass(frozen=True)
class Applies:
    """The choices that shape a model's vectors or what is measured of them, and whether each applies to a kind."""

    layer: bool  # a sentence vector from another layer than the last
    pooling: bool  # a pooling other than the model's own
    prompts: bool  # a typed or named prompt, or none of the model's own
    dimensions: bool  # Matryoshka truncation
    normalize: bool  # scaling each vector to unit length
    max_length: bool  # where a text is cut
    quantization: bool  # int8 or binary codes of the vectors
    layer_sweep: bool  # Evaluation's sentence vector of every layer against STS-B
    compare: bool  # CKA, Procrustes and the layer × layer CKA of two spaces
    drift: bool  # Fine-tune's drift curve and before/after of sentence vectors
    one_vector_per_text: bool  # a text is one vector (a map point, a lesson's vector); else one per token, or none


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
    # after the transformer, in the Model page's modules table
    modules_sentence: ClassVar[str] = "how its token vectors become one vector (from the folder's modules.json)"
    layer_vectors: ClassVar[str] = ""  # what Layers' sentence drift compares, where not a pooling's vectors
    sts_texts: ClassVar[str] = "sentences"  # what Evaluation's STS embeds
    sts_note: ClassVar[str] = ""  # said after the STS correlation, where the kind reads a pair its own way
    hits_rule: ClassVar[str] = ""  # which of a ranking's texts are hits, where the scores have no fixed scale
    hit_floor: ClassVar[float] = 0.0  # the score a hit must beat where the scores have no fixed scale
    saved: ClassVar[str] = "choose it in the sidebar on any page."  # where Fine-tune sends a model of this kind
    # why a view is not shown for this kind (by a field of Applies, or the view's name); {model} is the model's id
    not_shown: ClassVar[dict[str, str]] = {}

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

