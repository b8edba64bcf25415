"""The Model page's list of the models downloaded from the Hugging Face hub (huggingface_hub's cache): each one's
size on disk, when it was last used and downloaded, its revisions, and Delete, after a confirmation (a deployment
can switch deleting off; the sidebar's model is not deleted from under it)."""

from __future__ import annotations

import streamlit as st

from core.models.cache import (
    DeletionRefused,
    cached_origin,
    delete_downloaded,
    downloaded_models,
    downloaded_table,
    hub_cache,
)
from core.models.loading import LoadedModel
from core.progress import byte_size
from ui.components.confirmed_delete import confirmed_delete
from ui.work.cache import cached_catalog, cached_model, cached_reranker


def _delete(repo_id: str) -> None:
    """Delete the model, after letting go of the models this server keeps loaded (each session loads its own again
    when it next draws); what happened is said on the next run."""
    cached_model.clear()
    cached_reranker.clear()
    try:
        freed = delete_downloaded(repo_id)
    except DeletionRefused as err:
        st.session_state._dl_said = ("error", str(err))
    else:
        cached_catalog.clear()  # a catalog hub model it was is no longer "in the local cache"
        st.session_state._dl_said = ("success", f"Deleted {repo_id} from the Hugging Face cache ({byte_size(freed)} "
                                                "freed); it downloads again when a model needs it.")


def downloaded_view(model: LoadedModel) -> None:
    st.header("Downloaded models")
    if "_dl_said" in st.session_state:
        outcome, said = st.session_state.pop("_dl_said")
        (st.error if outcome == "error" else st.success)(said)
    models = downloaded_models()
    if not models:
        st.caption(f"No model has been downloaded from the Hugging Face hub into its cache ({hub_cache()}) yet.")
        return
    st.dataframe(downloaded_table(models), hide_index=True, column_config={
        "last used": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
        "downloaded or updated": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm")})
    st.caption(f"The models in the Hugging Face cache ({hub_cache()}), as huggingface_hub's scan_cache_dir reports "
               f"them: {byte_size(sum(entry.size_on_disk for entry in models))} in all. \"Last used\" is when one of "
               "a model's files was last read, as the file system records it (many record a read at most once a "
               "day); a revision is a commit, with the branch that points at it.")
    origin = cached_origin(model.folder)
    pick = st.selectbox("Model to delete", [entry.repo_id for entry in models], key="dl_pick")
    confirmed_delete(pick, origin[0] if origin else None, key="dl", delete=_delete,
                     question=f"Delete {pick} from this machine's Hugging Face cache, for every user of this server "
                              "and every program that uses the cache?")
