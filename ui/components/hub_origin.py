"""What the hub says about the loaded model (Home and Model): its id, the commit loaded, what its card declares, and a
link to its hub page at that commit; for a model from elsewhere, where it came from, as the catalog says."""

from __future__ import annotations

import streamlit as st

from core.models.anatomy import facts_frame
from core.models.hub_origin import origin_facts
from core.models.loading import LoadedModel
from ui.work.cache import hub_origin_of


def origin_view(model: LoadedModel, elsewhere: str) -> None:
    """The hub's facts for a model from the hub; for any other, the caption `elsewhere` (the catalog's word)."""
    origin = hub_origin_of(model.folder)
    if origin is None:
        st.caption(elsewhere)
        return
    named = f"{origin.repo_id} at {origin.commit[:7]}"
    st.markdown(f"From the Hugging Face hub: [{named}]({origin.url}), the files of the exact commit loaded (a shared "
                "link opens the same weights)." if origin.url else f"From the Hugging Face hub: {named}.")
    st.table(facts_frame(origin_facts(origin)))
    st.caption(origin.card_note or "Licence, base model, languages and library as the model card (README.md) "
                                   "declares them, read from the cache.")
