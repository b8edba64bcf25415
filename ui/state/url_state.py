"""Settings <-> URL query string, in one place (no Streamlit import, so it is unit-tested)."""

from __future__ import annotations

from collections.abc import Mapping

from core.settings import DEVICES, POOLINGS, Settings

KEYS = ("model", "pooling", "layer", "norm", "maxlen", "device", "dims")


def settings_from_query(params: Mapping[str, str]) -> Settings:
    """Read what the URL says; a value that does not parse falls back to the default for that field."""
    base = Settings()
    values: dict[str, object] = {}
    if params.get("model"):
        values["model_id"] = params["model"]
    if params.get("pooling") in POOLINGS:
        values["pooling"] = params["pooling"]
    if str(params.get("layer", "")).isdigit():
        values["layer"] = int(params["layer"])
    if params.get("norm") in ("0", "1"):
        values["normalize"] = params["norm"] == "1"
    if str(params.get("maxlen", "")).isdigit() and int(params["maxlen"]) >= 2:
        values["max_length"] = int(params["maxlen"])
    if str(params.get("dims", "")).isdigit() and int(params["dims"]) >= 1:
        values["truncate_dim"] = int(params["dims"])
    if params.get("device") in DEVICES:
        values["device"] = params["device"]
    return base.with_(**values)


def settings_to_query(settings: Settings) -> dict[str, str]:
    query = {"model": settings.model_id, "pooling": settings.pooling, "norm": "1" if settings.normalize else "0",
             "device": settings.device}
    if settings.layer is not None:
        query["layer"] = str(settings.layer)
    if settings.max_length is not None:
        query["maxlen"] = str(settings.max_length)
    if settings.truncate_dim is not None:
        query["dims"] = str(settings.truncate_dim)
    return query
