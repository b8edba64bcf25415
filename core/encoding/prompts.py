"""Which prompt a text gets, as sentence-transformers' `encode_query`, `encode_document` and `encode` choose it, and
how many of its tokens the prompt takes (what `Pooling(include_prompt=False)` leaves out)."""

from __future__ import annotations

from core.models.pipeline import Pipeline
from core.settings import Role, Settings

ROLE_CANDIDATES: dict[Role, tuple[str, ...]] = {"query": ("query",), "document": ("document", "passage", "corpus"),
                                               "text": ()}


class UnknownPrompt(ValueError):
    """A prompt name the model lacks; the message lists the ones it has."""


def named_prompt(pipeline: Pipeline, name: str) -> str:
    if name not in pipeline.prompts:
        have = ", ".join(name for name, text in pipeline.prompts.items() if text) or "none"
        raise UnknownPrompt(f"This model has no prompt named {name!r} (its prompts: {have}).")
    return pipeline.prompts[name]


def role_prompt_name(pipeline: Pipeline, role: Role) -> str | None:
    """The prompt name sentence-transformers uses for `role` when none is given: the role's own name (for a document:
    document, passage or corpus), else the model's default prompt name; None where no prompt applies."""
    own = next((name for name in ROLE_CANDIDATES[role] if name in pipeline.prompts), None)
    default = pipeline.default_prompt_name if pipeline.default_prompt_name in pipeline.prompts else None
    return own or default


def resolve_prompt(pipeline: Pipeline, role: Role = "text", *, name: str | None = None,
                   text: str | None = None) -> str:
    """The literal prompt a text gets: a typed `text` wins, then a `name` of the model's prompts, then the role's."""
    if text is not None:
        return text
    if name is not None:
        return named_prompt(pipeline, name)
    chosen = role_prompt_name(pipeline, role)
    return pipeline.prompts[chosen] if chosen else ""


def prompt_length(tokenizer, prompt: str) -> int:
    """The prompt's tokens at the start of a prompted text, as sentence-transformers counts them: the prompt
    tokenized alone, without a trailing special token (an end-of-text or [SEP] the tokenizer adds)."""
    if not prompt:
        return 0
    ids = tokenizer(prompt)["input_ids"]
    return len(ids) - 1 if ids and ids[-1] in set(tokenizer.all_special_ids) else len(ids)


def role_prompts(pipeline: Pipeline, *, use: bool = True, query: str | None = None) -> tuple[str, str]:
    """The (query, document) prompts of a retrieval run: the model's own for each role, none when `use` is False;
    a typed `query` prompt replaces the query's."""
    own_query = resolve_prompt(pipeline, "query") if use else ""
    return (own_query if query is None else query), (resolve_prompt(pipeline, "document") if use else "")


def with_role(settings: Settings, pipeline: Pipeline, role: Role) -> Settings:
    """`settings` for a text of `role`: the prompt the model gives it (and, for a sparse model with a Router, its
    route)."""
    return settings.with_(prompt=resolve_prompt(pipeline, role), role=role)
