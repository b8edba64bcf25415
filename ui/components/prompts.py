"""The query and document prompts of a page that searches (Retrieval, Evaluation): the model's own by default, a
switch to measure without them, and a caption naming what was used."""

from __future__ import annotations

import streamlit as st

from core.encoding.encoder import prompt_tokens_checked
from core.encoding.prompts import role_prompts
from core.kinds import kind_of
from core.models.loading import LoadedModel
from ui.state.persist import kept


def without_prompts(model: LoadedModel, *, key: str) -> bool:
    """The "Without prompts" switch, shown only for a model with a query or document prompt (else False); never for a
    late-interaction model, whose markers or prompts are part of how it encodes."""
    if not kind_of(model).applies.prompts or not any(role_prompts(model.pipeline)):
        return False
    return kept(st.toggle, "Without prompts", key=key, url=True, default=False,
                help="Embed queries and documents as typed, to see what the model's prompts add.")


def prompts_caption(model: LoadedModel, prompts: tuple[str, str]) -> str:
    query, document = prompts
    if not kind_of(model).applies.prompts:
        return (f"{model.model_id} reads queries and documents with its own markers or prompts, as its encode_query "
                "and encode_document apply them.")
    if not any(role_prompts(model.pipeline)):
        return f"{model.model_id} has no query or document prompt: texts are embedded as typed."
    if not any(prompts):
        return "Embedded without the model's prompts (the switch is on)."
    return (f"Queries get the query prompt {query!r}" if query else "Queries get no prompt") + "; " + (
        f"documents get the document prompt {document!r}." if document else "documents get no prompt.")


NONE, TYPED = "No prompt", "A prompt I type"


def text_prompt(model: LoadedModel, max_length: int | None, *, key: str) -> str:
    """The prompt the page's texts get: none, one of the model's named prompts, or a typed one (the model's default
    prompt to start with). One that would leave no room for the text is said so and not applied."""
    named = {name: text for name, text in model.pipeline.prompts.items() if text}
    default = model.pipeline.default_prompt_name if model.pipeline.default_prompt_name in named else NONE
    choice = kept(st.selectbox, "Prompt before each text", key=key, url=True, default=default,
                  options=[NONE, *named, TYPED], must_be_option=True,
                  format_func=lambda name: f"{name}: {named[name]!r}" if name in named else name,
                  help="Instruction-tuned models expect a prompt such as “query: ”; the model's own prompts are "
                       "listed, or type one.")
    prompt = kept(st.text_input, "Typed prompt", key=f"{key}_text", url=True, default="",
                  placeholder="e.g. Represent this sentence for searching relevant passages: ") \
        if choice == TYPED else named.get(choice, "")
    try:
        prompt_tokens_checked(model, prompt, model.token_limit(max_length))
    except ValueError as err:
        st.warning(f"{err} The texts are embedded without it meanwhile.")
        return ""
    return prompt
