"""Home: what the app is for, and the loaded model's facts."""

from __future__ import annotations

import streamlit as st

from core.lessons.lessons import LESSONS
from core.models.anatomy import facts_frame, model_facts
from ui.components.downloads import csv_download
from ui.components.hub_origin import origin_view
from ui.components.sidebar import page
from ui.kinds import views_of


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
    views_of(model).home(model)


main()
