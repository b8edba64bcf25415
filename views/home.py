"""Home: what the app is for, and the loaded model's facts."""

from __future__ import annotations

import streamlit as st

from core.analysis.late_interaction import vectors_sentence
from core.analysis.late_storage import storage_table
from core.data.stsb import DataUnavailable
from core.lessons.lessons import LESSONS
from core.models.anatomy import facts_frame, model_facts
from core.models.catalog import LATE
from core.models.loading import LoadedModel
from ui.components.downloads import csv_download
from ui.components.hub_origin import origin_view
from ui.components.sidebar import page
from ui.work.cache import builtin_storage_of


def late_vectors(model: LoadedModel) -> None:
    """What a late-interaction model keeps of a text, and what the built-in corpus takes stored that way."""
    st.subheader("What the vectors are")
    st.markdown(vectors_sentence(model))
    try:
        storage = builtin_storage_of(model.model_id, model.fingerprint, _model=model)
    except DataUnavailable as err:
        st.caption(f"The built-in corpus's storage is not shown: {err}")
        return
    table = storage_table(storage)
    st.table(table)
    st.caption(f"The built-in corpus (Retrieval's {storage.texts:,} STS-B texts) stored as this model's documents "
               f"(counted by its tokenizer: the document prompt, the cut at {model.late_pipeline.document_length} "
               "tokens and the skiplist's drops), beside one float32 vector a text of the transformer's hidden size, "
               "which a dense model on the same transformer keeps. The Model page shows a typed text's tokens."
               + (" The model pools its document tokens, so its counts are the most it keeps." if storage.at_most
                  else ""))
    csv_download(table, f"{model.model_id}-storage.csv", key="home_storage_csv")


def main() -> None:
    _, model = page("Embedding Explorer")
    st.markdown(
        "See how a transformer text encoder embeds your texts: which it finds similar, how a word's vector "
        "changes from layer to layer, what a query retrieves, and how a model, pooling or layer scores on real "
        "benchmark data. Everything runs on this machine with models that ship as Python packages; choose the "
        "model, pooling and layer in the sidebar (the URL keeps your choice, so a copied link shows the same view)."
    )
    st.page_link("views/lessons.py", label=f"New here? Start with the lessons: {len(LESSONS)} one-click exercises",
                 icon=":material/school:")
    st.subheader(f"Loaded model: {model.model_id}")
    if model.entry.untrained:
        st.warning("This model has random weights: it shows what similarity looks like before any training.")
    origin_view(model, model.entry.description)
    facts = facts_frame(model_facts(model))
    st.table(facts)
    csv_download(facts, f"{model.model_id}-facts.csv", key="home_facts_csv")
    if model.kind == LATE:
        late_vectors(model)


main()
