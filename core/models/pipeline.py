"""What turns a transformer's token states into a sentence vector: the modules after the transformer in a loaded
SentenceTransformer (Pooling, Dense, Normalize …), kept as the very modules sentence-transformers runs, with the
model's prompts. A pipeline this app cannot reproduce exactly is refused with one sentence."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from core.models.catalog import ModelUnavailable
from core.models.pooling import STModule, UnknownPooling, our_names, pooling_module

AFTER_POOLING = ("Dense", "Normalize", "LayerNorm", "Dropout")  # modules applied to the pooled vector as they are


@dataclass(frozen=True)
class Stage:
    """One module of the pipeline: its class name and what it does, in words."""

    module_type: str
    detail: str


class Head(torch.nn.Module):
    """The modules after pooling (Dense stacks, LayerNorm …) applied to a batch of pooled vectors, as
    sentence-transformers applies them (each takes and returns a features dict)."""

    def __init__(self, modules: list[torch.nn.Module]) -> None:
        super().__init__()
        self.stack = torch.nn.ModuleList(modules)

    def forward(self, vectors: torch.Tensor) -> torch.Tensor:
        features = {"sentence_embedding": vectors}
        for module in self.stack:
            features = module(features)
        return features["sentence_embedding"]


@dataclass(frozen=True)
class Pipeline:
    """`pooler` is the model's own `Pooling` module (`pooling` names its modes in this project's terms); `head` the
    modules between pooling and a final Normalize; `described` is False for a plain transformers checkpoint, which
    the app pools by the mean. `prompts` maps a prompt's name to its text (an empty one
    means "no prompt" for that name, as in sentence-transformers)."""

    pooler: STModule
    pooling: tuple[str, ...] = ("mean",)
    include_prompt: bool = True
    head: Head | None = None
    normalizes: bool = False
    max_seq_length: int | None = None
    prompts: dict[str, str] = field(default_factory=dict)
    default_prompt_name: str | None = None
    stages: tuple[Stage, ...] = ()
    described: bool = True

    @property
    def pooling_label(self) -> str:
        return " + ".join(self.pooling) + ("" if self.include_prompt else " (prompt left out)")


@dataclass(frozen=True)
class SparsePipeline(Pipeline):
    """A SparseEncoder's modules: `transformer` is its (document side's) transformer, `splade` its SpladePooling
    (None for a sparse model of another build, such as a sparse autoencoder over a dense vector), `vocabulary` the
    width of its vectors, `terms` whether each dimension is a token of the tokenizer's vocabulary, `similarity` the
    model's own similarity function, `query_side` what encodes queries where they take another route (a Router)."""

    transformer: STModule = None
    splade: STModule = None
    vocabulary: int = 0
    terms: bool = True
    similarity: str = "dot"
    query_side: str | None = None


@dataclass(frozen=True)
class LateInteractionPipeline(Pipeline):
    """A MultiVectorEncoder's modules: one vector per kept token, scored by late interaction. `transformer` is its
    Transformer; `width` the token vectors' dimensions (after any projection); `query_length` and
    `document_length` the tokens each side is cut at; `expansion` the query expansion sentence-transformers applies
    (None: off); `skiplist` the words dropped from the `skiplist_tasks` sides (documents by default); `similarity`
    "maxsim" or "meanmaxsim" (MaxSim over the query's token count); `token_pooling` a pooling module's description
    where the model pools its document tokens (its vectors are then no longer one per token)."""

    transformer: STModule = None
    width: int = 0
    query_length: int = 0
    document_length: int = 0
    expansion: dict | None = None
    skiplist: tuple[str, ...] = ()
    skiplist_tasks: tuple[str, ...] = ("document",)
    similarity: str = "maxsim"
    token_pooling: str | None = None

    @property
    def expansion_tokens(self) -> int:
        """The length queries are expanded to (0: no expansion)."""
        return int(self.expansion["length"]) if self.expansion else 0


def _detail(module: STModule, max_seq_length: int | None) -> str:
    module_type = type(module).__name__
    if module_type == "Transformer":
        return f"{type(module.auto_model).__name__}, max {max_seq_length} tokens"
    if module_type == "SpladePooling":
        return (f"SPLADE: log(1 + ReLU) of the masked-LM logits ({module.activation_function}), "
                f"{module.pooling_strategy} over the tokens: one weight per vocabulary entry")
    if module_type == "SparseStaticEmbedding":
        return f"a fixed weight for each of the text's {module.num_dimensions:,}-vocabulary tokens (no network)"
    if module_type == "SparseAutoEncoder":
        return f"{module.input_dim} → {module.hidden_dim} dims, the top {module.k} kept"
    if module_type == "StaticEmbedding":
        return f"{module.num_embeddings:,} token vectors of {module.embedding_dim} dims, averaged (no layers)"
    if module_type == "Pooling":
        mode = module.pooling_mode
        return "pooling: " + (mode if isinstance(mode, str) else ", ".join(mode)) + (
            "" if module.include_prompt else "; prompt tokens left out")
    if module_type == "Dense":
        return f"{module.in_features} → {module.out_features} dims"
    if module_type == "Normalize":
        return ("scales each token vector to unit length" if getattr(module, "module_input_name", "") ==
                "token_embeddings" else "scales each sentence vector to unit length")
    if module_type == "MultiVectorMask":
        skipped = f"drops {len(module.skiplist_words)} skiplist words from {' and '.join(module.skiplist_tasks)}s" \
            if module.skiplist_words else "keeps every real token"
        return f"which token vectors are scored: {skipped}"
    if module_type == "HierarchicalTokenPooling":
        return (f"merges a {', '.join(module.tasks)}'s token vectors by clustering, about 1 in "
                f"{module.pool_factor:g} kept")
    return ""


def _refuse(model_id: str, why: str, reason: str = "this app cannot reproduce that exactly") -> ModelUnavailable:
    return ModelUnavailable(f"'{model_id}' {why}: {reason}, so it is not loaded; pick another model.")


def _pooling_step(model_id: str, modules: list[STModule], module_types: list[str]) -> tuple[STModule, int]:
    """The Pooling module and where the modules after it start: a static model's EmbeddingBag averages its token
    vectors, which is mean pooling over layer 0."""
    if module_types[0] in ("Router", "Asym"):
        raise _refuse(model_id, "routes queries and documents through different modules (a Router)",
                      "this app does not load such models yet")
    if module_types[0] == "StaticEmbedding":
        return pooling_module(("mean",), modules[0].embedding_dim), 1
    if module_types[0] != "Transformer":
        raise _refuse(model_id, f"starts with a {module_types[0]} module rather than a transformer")
    if "Pooling" not in module_types:
        raise _refuse(model_id, "has no Pooling module")
    if module_types.index("Pooling") != 1:
        raise _refuse(model_id, f"runs {module_types[1]} between the transformer and pooling")
    return modules[1], 2


SPARSE_SIMILARITIES = ("dot", "cosine")


def _routes(model) -> tuple[list[STModule], list[STModule] | None]:
    """A SparseEncoder's document modules and, where a Router sends queries elsewhere, its query modules."""
    first = model[0]
    if type(first).__name__ != "Router":
        return list(model), None
    routes = {name: list(route) for name, route in first.sub_modules.items()}
    document = routes.get("document") or routes.get(first.default_route or "") or next(iter(routes.values()))
    query = routes.get("query")
    return document + list(model)[1:], None if query is None or query == document else query + list(model)[1:]


def sparse_pipeline(model, *, model_id: str) -> SparsePipeline:
    """The pipeline of a loaded `sentence_transformers.SparseEncoder`; ModelUnavailable for one this app cannot look
    into (no transformer on the document side, a similarity other than dot or cosine)."""
    document, query = _routes(model)
    module_types = [type(m).__name__ for m in document]
    if "Transformer" not in module_types and "MLMTransformer" not in module_types:
        raise _refuse(model_id, "has no transformer on its document side", "this app looks into a transformer")
    transformer = next(m for m in document if type(m).__name__ in ("Transformer", "MLMTransformer"))
    splade = next((m for m in document if type(m).__name__ == "SpladePooling"), None)
    similarity = model.similarity_fn_name
    if similarity not in SPARSE_SIMILARITIES:
        raise _refuse(model_id, f"compares vectors by {similarity}", "this app ranks sparse vectors by dot product "
                                                                     "or cosine")
    tokenizer = transformer.tokenizer
    # SpladePooling knows its width only after a first forward pass: the masked LM's vocabulary
    width = int(transformer.auto_model.config.vocab_size if splade is not None else model.get_embedding_dimension())
    stages = [Stage(name, _detail(m, model.max_seq_length)) for name, m in zip(module_types, document)]
    if query is not None:
        stages.insert(0, Stage("Router", "queries: " + " → ".join(type(m).__name__ for m in query)
                               + "; documents: " + " → ".join(module_types)))
    return SparsePipeline(pooler=splade, pooling=(f"SPLADE {splade.pooling_strategy}" if splade is not None
                                                  else " → ".join(module_types[1:]),),
                          max_seq_length=model.max_seq_length, prompts=dict(model.prompts),
                          default_prompt_name=model.default_prompt_name, stages=tuple(stages), transformer=transformer,
                          splade=splade, vocabulary=width, terms=width == len(tokenizer), similarity=similarity,
                          query_side=None if query is None else " → ".join(type(m).__name__ for m in query))


def pipeline_of(model, *, model_id: str, described: bool = True) -> Pipeline:
    """The pipeline of a loaded `sentence_transformers.SentenceTransformer`; ModelUnavailable with the reason for
    one whose modules this app cannot reproduce (a Router, a module before pooling it does not know)."""
    modules: list[STModule] = list(model)
    module_types = [type(m).__name__ for m in modules]
    pooler, start = _pooling_step(model_id, modules, module_types)
    after = modules[start:]
    strange = [type(m).__name__ for m in after if type(m).__name__ not in AFTER_POOLING]
    if strange:
        raise _refuse(model_id, f"applies {', '.join(strange)} after pooling")
    try:
        pooling = our_names(pooler.pooling_mode)
    except UnknownPooling as err:
        raise ModelUnavailable(f"'{model_id}': {err}") from err
    normalizes = bool(after) and type(after[-1]).__name__ == "Normalize"
    head = after[:-1] if normalizes else after
    return Pipeline(pooler=pooler, pooling=pooling, include_prompt=bool(pooler.include_prompt),
                    head=Head(head) if head else None, normalizes=normalizes, max_seq_length=model.max_seq_length,
                    prompts=dict(model.prompts), default_prompt_name=model.default_prompt_name,
                    stages=tuple(Stage(name, _detail(m, model.max_seq_length))
                                 for name, m in zip(module_types, modules)),
                    described=described)


def _role_length(transformer: STModule, length: int | None) -> int:
    return int(min(length or transformer.max_seq_length, transformer.max_seq_length))


def late_interaction_pipeline(model, *, model_id: str) -> LateInteractionPipeline:
    """The pipeline of a loaded `sentence_transformers.MultiVectorEncoder`; ModelUnavailable for one this app cannot
    look into (no transformer, text that is not its input)."""
    from sentence_transformers.multi_vector_encoder.modules import BaseTokenPooling

    modules = list(model)
    module_types = [type(m).__name__ for m in modules]
    if "Transformer" not in module_types:
        raise _refuse(model_id, "has no Transformer module", "this app looks into a transformer")
    transformer = modules[module_types.index("Transformer")]
    mask = next((m for m in modules if type(m).__name__ == "MultiVectorMask"), None)
    pooling = next((m for m in modules if isinstance(m, BaseTokenPooling)), None)
    expansion = transformer.query_expansion
    query_length = _role_length(transformer, transformer.query_length)
    return LateInteractionPipeline(
        pooler=None, pooling=("late interaction",), max_seq_length=transformer.max_seq_length,
        prompts={name: text for name, text in model.prompts.items() if text is not None},
        default_prompt_name=model.default_prompt_name,
        stages=tuple(Stage(name, _detail(m, transformer.max_seq_length)) for name, m in zip(module_types, modules)),
        normalizes=any(module_type == "Normalize" for module_type in module_types), transformer=transformer,
        width=int(model.get_embedding_dimension() or transformer.get_embedding_dimension()),
        query_length=int(expansion["length"]) if expansion and expansion["strategy"] == "fixed" else query_length,
        document_length=_role_length(transformer, transformer.document_length),
        expansion=dict(expansion) if expansion else None,
        skiplist=tuple(mask.skiplist_words) if mask is not None else (),
        skiplist_tasks=tuple(mask.skiplist_tasks) if mask is not None else (),
        similarity=model.similarity_fn_name,
        token_pooling=None if pooling is None else _detail(pooling, None) or type(pooling).__name__)
