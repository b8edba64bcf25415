"""The Model page's list of the models downloaded from the Hugging Face hub (huggingface_hub's cache): each one's
size on disk, when it was last used and downloaded, its revisions, and Delete, after a confirmation (a deployment
can switch deleting off; the sidebar's model is not deleted from under it)."""

from __future__ import annotations

import streamlit as st

from core.deployment import load_config, where_set
from core.models.cache import (
    DeletionRefused,
    DownloadedModel,
    cached_origin,
    delete_downloaded,
    downloaded_models,
    downloaded_table,
    hub_cache,
)
from core.models.loading import LoadedModel
from core.progress import byte_size
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
    st.session_state.pop("dl_confirm", None)


def _delete_control(models: list[DownloadedModel], in_use: str | None) -> None:
    if not load_config().allow_model_deletion:
        st.caption(f"Deleting models is switched off on this server ({where_set('allow_model_deletion')}).")
        return
    pick = st.selectbox("Model to delete", [model.repo_id for model in models], key="dl_pick")
    if st.session_state.get("dl_confirm") != pick:
        if st.button(f"Delete {pick}…", key="dl_delete"):
            if pick == in_use:
                st.error(f"{pick} is the sidebar's model now; choose another model in the sidebar, then delete it.")
            else:
                st.session_state.dl_confirm = pick
                st.rerun()
        return
    st.warning(f"Delete {pick} from this machine's Hugging Face cache, for every user of this server and every "
               "program that uses the cache?")
    yes, no = st.columns([1, 4])
    if yes.button("Yes, delete", type="primary", key="dl_delete_yes"):
        _delete(pick)
        st.rerun()
    if no.button("Cancel", key="dl_delete_no"):
        st.session_state.pop("dl_confirm", None)
        st.rerun()


def downloaded_view(model: LoadedModel) -> None:
    st.header("Downloaded models")
    if "_dl_said" in st.session_state:
        kind, said = st.session_state.pop("_dl_said")
        (st.error if kind == "error" else st.success)(said)
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
    _delete_control(models, origin[0] if origin else None)
