"""The shared sidebar: model, pooling, layer, normalisation, max length, device; kept in the URL."""

from __future__ import annotations

import streamlit as st

from core.deployment import load_config
from core.kinds import kind_of
from core.models.catalog import DEFAULT_MODEL_ID, Availability, CatalogEntry
from core.models.devices import available_devices
from core.models.download import download_job
from core.models.loading import LoadedModel
from core.models.pooling import MODES
from core.models.sources import downloads_off_note, pending_download
from core.settings import POOLINGS, Settings, carried_layer, layer_setting
from ui.components.model_download import download_status
from ui.components.sliders import layer_slider
from ui.kinds import views_of
from ui.state.url_state import KEYS, settings_from_query, settings_to_query
from ui.work.cache import cached_catalog, cached_model

POOLING_HELP = "; ".join(["default: the model's own pooling (its sentence-transformers config; mean for plain "
                          "checkpoints)", *(f"{mode.name}: {mode.help}" for mode in MODES.values())])


def _seed_from_url() -> None:
    """On a session's first run, the URL's settings become the widgets' starting values."""
    ss = st.session_state
    if "sb_model" in ss:
        return
    wanted = settings_from_query(st.query_params.to_dict())
    known = [entry.id for entry, _ in _listed()]  # a link naming a reranker is tried, and says why it is not loaded
    ss.sb_model = wanted.model_id if wanted.model_id in known else DEFAULT_MODEL_ID
    ss.sb_custom = "" if wanted.model_id in known else wanted.model_id
    ss.sb_pooling = wanted.pooling
    ss.sb_norm = wanted.normalize
    ss.sb_device = wanted.device if wanted.device == "auto" or wanted.device in available_devices() else "auto"
    ss._url_layer = wanted.layer
    ss._url_maxlen = wanted.max_length
    ss._url_dims = wanted.truncate_dim


def _load(model_id: str, device: str) -> LoadedModel:
    """Load the chosen model; a hub model that is not in the cache downloads in the background first, the pages
    keeping the model in use meanwhile. If it fails, the sidebar goes back to the model in use (a typed id stays
    typed, but is not tried again until it is edited) and the reason is said once, on the next run."""
    ss = st.session_state
    repo = pending_download(model_id)
    if repo is not None:
        meanwhile = _fallback(model_id)
        download_status(download_job(repo), repo, f"Meanwhile the pages use {meanwhile}.",
                        lambda reason, chosen=model_id: _give_up(chosen, reason))
        model_id = meanwhile
    try:
        model = cached_model(model_id, device)
    except Exception as err:  # any load failure must leave the app usable
        if model_id == DEFAULT_MODEL_ID:
            st.error(f"The packaged default model could not be loaded: {err} Run `make setup` again.")
            st.stop()
        _give_up(model_id, str(err))
        st.rerun()
    ss._last_good_model = model.model_id
    return model


def _fallback(model_id: str) -> str:
    """The model in use before `model_id` was chosen."""
    fallback = st.session_state.get("_last_good_model", DEFAULT_MODEL_ID)
    return DEFAULT_MODEL_ID if fallback == model_id else fallback


def _give_up(model_id: str, reason: str) -> None:
    """Back to the model in use, saying why `model_id` is not loaded (once, on the next run)."""
    ss = st.session_state
    fallback = _fallback(model_id)
    ss._load_failure = f"Could not load {model_id}: {reason} Still showing {fallback}."
    if model_id == ss.get("sb_custom", "").strip():
        ss._failed_custom = model_id, reason
    else:
        ss._reset_model = fallback if fallback in {entry.id for entry, _ in cached_catalog()} else DEFAULT_MODEL_ID


def _chosen_model() -> str:
    """The sidebar's model id: the typed one (unless it just failed to load), else the picked one."""
    ss = st.session_state
    if "_reset_model" in ss:
        ss.sb_model = ss.pop("_reset_model")  # before the select box is drawn, so it shows the model in use
    listed = _listed()
    labels = {entry.id: entry.listed(avail.available) for entry, avail in listed}
    chosen = st.selectbox("Model", list(labels), format_func=labels.__getitem__, key="sb_model",
                          help="Models from the Hugging Face hub show their parameters, download size and licence; "
                               "one that the cache lacks downloads when chosen.")
    note = downloads_off_note()
    if note and any(entry.source == "hub" and not avail.available for entry, avail in listed):
        st.caption(note)
    _hub_models()
    if load_config().allow_custom_models:
        st.text_input("Other model", key="sb_custom", placeholder="Hugging Face id or local folder",
                      help="Overrides the list while it is filled in. Remote code is never run.")
    custom = ss.get("sb_custom", "").strip()
    failed, reason = ss.get("_failed_custom", (None, ""))
    if custom and custom == failed:  # said on every page, as the error above it is said once
        st.caption(f"The model typed above is not loaded: {reason} Edit it to try again.")
        return chosen
    ss.pop("_failed_custom", None)
    return custom or chosen


def _listed() -> list[tuple[CatalogEntry, Availability]]:
    """The catalog's models that embed: one with no vectors of its own (a reranker) is chosen under Rerank; an
    entry of no kind says it on loading."""
    return [(entry, avail) for entry, avail in cached_catalog() if entry.kind is None or kind_of(entry.kind).embeds]


def _hub_models() -> None:
    """The catalog's hub models in full (the list above cuts long lines off): kind, size, licence, prompts."""
    hub = [(entry, avail) for entry, avail in cached_catalog() if entry.source == "hub"]
    with st.expander(f"Models from the hub ({len(hub)})"):
        st.markdown("\n".join(f"- **{entry.label}**{'' if avail.available else ' (not available)'}: "
                               f"{entry.description}." for entry, avail in hub))


def _layer(model: LoadedModel) -> int:
    ss = st.session_state
    last = model.num_layers
    if "sb_layer" not in ss:
        url_layer = ss.pop("_url_layer", None)
        ss.sb_layer = last if url_layer is None else min(url_layer, last)
    else:
        ss.sb_layer = carried_layer(ss.sb_layer, ss.get("_sb_model_layers", last), last)
    ss._sb_model_layers = last
    return layer_slider("Layer", 0, last, key="sb_layer", help=f"0 is the embedding layer, {last} the last "
                                                               "transformer layer.")


def _dimensions(full: int) -> int:
    """Matryoshka truncation: the vectors' first dimensions (all of them by default, and after a model change)."""
    ss = st.session_state
    if "sb_dims" not in ss or ss.get("_sb_full_dims") != full:
        url_dims = ss.pop("_url_dims", None)
        ss.sb_dims = full if url_dims is None or ss.get("_sb_full_dims") is not None else min(url_dims, full)
    ss._sb_full_dims = full
    return int(st.number_input("Dimensions kept", min_value=1, max_value=full, step=1, key="sb_dims",
                               help=f"Keep the first dimensions of each vector, as sentence-transformers' "
                                    f"truncate_dim does ({full} = all). Models trained with Matryoshka loss "
                                    "keep most of their quality at a fraction of the size."))


def _prompts(model: LoadedModel) -> None:
    """The model's prompts, as pages apply them (queries the query prompt, documents the document one)."""
    named = {name: text for name, text in model.pipeline.prompts.items() if text}
    if not named:
        st.caption(f"{model.model_id} has no prompts: texts are embedded as typed.")
        return
    default = model.pipeline.default_prompt_name
    with st.expander(f"Prompts ({len(named)})"):
        for name, text in named.items():
            st.text(f"{name}{' (default)' if name == default else ''}: {text!r}")
        st.caption("Retrieval and Evaluation put the query prompt before queries and the document prompt before "
                   "documents, as sentence-transformers' encode_query and encode_document do.")


def _length(model: LoadedModel) -> int:
    ss = st.session_state
    if "sb_maxlen" not in ss:
        url_len = ss.pop("_url_maxlen", None)
        ss.sb_maxlen = min(url_len or model.max_length, model.max_positions)
    elif ss.sb_maxlen == ss.get("_sb_model_maxlen", model.max_length) != model.max_length:
        ss.sb_maxlen = model.max_length  # "the model's default" carries over too
    ss.sb_maxlen = min(ss.sb_maxlen, model.max_positions)
    ss._sb_model_maxlen = model.max_length
    return int(st.number_input("Max length (tokens)", min_value=2, max_value=model.max_positions, step=16,
                               key="sb_maxlen", help="Longer texts are cut at this many tokens (and flagged)."))


def render_sidebar() -> tuple[Settings, LoadedModel]:
    """Draw the sidebar and return the settings and the loaded model every page uses."""
    _seed_from_url()
    with st.sidebar:
        st.header("Model")
        if "_load_failure" in st.session_state:
            st.error(st.session_state.pop("_load_failure"))  # once: the next run no longer repeats it
        model_id = _chosen_model()
        device = st.selectbox("Device", ["auto", *available_devices()], key="sb_device")
        model = _load(model_id, device)
        if model.entry.untrained:
            st.info("Untrained: random weights, shown to compare against trained models.")
        st.caption(f"{model.model_id}: {model.num_layers} layers, {model.hidden_size} dims, on {model.device}.")
        st.header("Embedding")
        applies = kind_of(model).applies  # only the choices that shape this kind's vectors are offered
        views_of(model).embedding_note(model)
        pooling = st.selectbox("Pooling", POOLINGS, key="sb_pooling", help=POOLING_HELP,
                               format_func=lambda name: (f"default ({model.pipeline.pooling_label})"
                                                         if name == "default" else name)) \
            if applies.pooling else "default"
        layer = _layer(model) if applies.layer else model.num_layers
        max_length = _length(model) if applies.max_length else model.max_length
        dims = _dimensions(model.width(pooling)) if applies.dimensions else model.width(pooling)
        normalize = st.checkbox("Normalize to unit length", key="sb_norm") if applies.normalize else False
        _prompts(model)
    settings = Settings(model_id=model.model_id, pooling=pooling, layer=layer_setting(layer, model.num_layers),
                        normalize=normalize, max_length=None if max_length == model.max_length else max_length,
                        device=device, truncate_dim=None if dims == model.width(pooling) else dims)
    query = settings_to_query(settings)
    for key in KEYS:
        if key in query and st.query_params.get(key) != query[key]:
            st.query_params[key] = query[key]
        elif key not in query and key in st.query_params:
            del st.query_params[key]
    st.session_state._settings = settings
    return settings, model


def page(title: str) -> tuple[Settings, LoadedModel]:
    """Start a page: its title, and the settings and model of this run's sidebar."""
    st.title(title)
    return active()


def active() -> tuple[Settings, LoadedModel]:
    """The settings and model chosen in this run's sidebar (app.py draws it before the page runs)."""
    settings: Settings = st.session_state._settings
    return settings, cached_model(settings.model_id, settings.device)
