"""Home's part for a late-interaction model: what it keeps of a text, and the built-in corpus's storage."""

from __future__ import annotations

import streamlit as st

from core.analysis.late.alignment import vectors_sentence
from core.analysis.late.storage import storage_table
from core.data.stsb import DataUnavailable
from core.models.loading import LoadedModel
from ui.components.downloads import csv_download
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
