"""The Model page's Terms view of a sparse model: a typed text's active terms and their weights, the expansion (terms
the model adds that the text does not hold) marked, and how sparse the vector is; for queries and documents apart
where the model treats them differently."""

from __future__ import annotations

import streamlit as st

from core.analysis.terms import sides_differ, text_terms
from core.models.loading import LoadedModel
from core.plots.terms import TOP_TERMS, terms_figure
from core.settings import Role, Settings
from ui.components.downloads import csv_download
from ui.state.persist import kept

EXAMPLE = "The bank by the river was flooded."
SIDES: dict[Role, str] = {"query": "As a query", "document": "As a document"}


def _side(model: LoadedModel, settings: Settings, text: str, role: Role, *, key: str) -> None:
    terms = text_terms(model, text, settings, role)
    active, ratio, added = st.columns(3)
    active.metric("Active terms", f"{terms.sparsity.active_dims:,.0f}", help="Non-zero weights of the vector, as "
                  "sentence-transformers' SparseEncoder.sparsity counts them.")
    ratio.metric("Zeros", f"{terms.sparsity.sparsity_ratio:.3%}", help=f"Of the {model.dimensions:,} dimensions.")
    added.metric("Added by the model", f"{len(terms.expansion):,}",
                 help="Active terms that are not tokens of the text or its prompt: the model's expansion.")
    if terms.truncated:
        st.warning("The text is longer than the model's token limit: only its first tokens were read.")
    if terms.prompt:
        st.caption(f"Read after the prompt {terms.prompt!r}.")
    st.plotly_chart(terms_figure(terms), key=f"{key}_chart")
    csv_download(terms.table.drop(columns="column"), f"terms-{role}.csv", index=False, key=f"{key}_csv")


def terms_view(model: LoadedModel, settings: Settings) -> None:
    st.header("Terms")
    text = kept(st.text_area, "Text to read as terms", key="model_terms_text", url=True, default=EXAMPLE,
                height=80).strip()
    if not text:
        st.info("Type a text above to see which vocabulary entries the model turns on for it.")
        return
    roles: list[Role] = ["query", "document"] if sides_differ(model) else ["document"]
    for column, role in zip(st.columns(len(roles)), roles):
        with column:
            if len(roles) > 1:
                st.subheader(SIDES[role])
            _side(model, settings, text, role, key=f"model_terms_{role}")
    st.caption(f"The text's {TOP_TERMS} heaviest terms: each bar is one vocabulary entry's weight in the vector, "
               "blue where the text holds the word, orange where the model added it (its expansion: related words "
               "that let the text match texts that do not share its words), grey where the prompt holds it. Two "
               "texts' score is the sum, over the terms both hold, of their weights multiplied."
               + (" Queries and documents are embedded differently here (another route or another prompt), so "
                  "both sides are shown." if len(roles) > 1 else ""))
