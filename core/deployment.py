"""Deployment switches and limits: `explorer.toml` at the repo root, each key overridable by an
`EXPLORER_<KEY>` environment variable (for example `EXPLORER_ALLOW_CUSTOM_MODELS=0`)."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

CONFIG_FILE = Path(__file__).resolve().parent.parent / "explorer.toml"


@dataclass(frozen=True)
class DeploymentConfig:
    allow_custom_models: bool = True
    allow_downloads: bool = True  # off for hosted demos: hub models load only from the local cache
    allow_model_deletion: bool = True  # off for hosted demos: nobody may delete a fine-tuned model
    warm_up: bool = True  # at start, in the background: first visits' needs, built-in corpus, default map
    max_texts: int = 200
    max_chars_per_text: int = 20_000
    max_corpus_rows: int = 100_000
    max_upload_mb: int = 200  # 100,000 vectors of 384 dimensions are 154 MB as .npy
    max_eval_queries: int = 5_000
    datasets: tuple[str, ...] = ()  # server-side folders of Parquet vectors (`embed --engine ray`) and store URIs
    # (core.data.stores); the browser picks them by name, never by path; relative paths start at the repo root


def _coerce(raw: object, field_type: type) -> object:
    if field_type is bool and isinstance(raw, str):
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if field_type is tuple and isinstance(raw, str):  # EXPLORER_DATASETS=/data/a:/data/b, or, with a store URI among
        # them (its own ":"), separated by spaces: EXPLORER_DATASETS="/data/a lancedb:///data/store/docs"
        return tuple(part for part in (raw.split() if "://" in raw else raw.split(os.pathsep)) if part)
    return field_type(raw)


def where_set(key: str) -> str:
    """A switch as the deployment set it, to name it in a message: `EXPLORER_<KEY>=value`, or `key = value` in
    explorer.toml."""
    variable = f"EXPLORER_{key.upper()}"
    if variable in os.environ:
        return f"{variable}={os.environ[variable]}"
    value = getattr(load_config(), key)
    shown = str(value).lower() if isinstance(value, bool) else repr(value)
    return f"{key} = {shown} in {CONFIG_FILE.name}"


@lru_cache(maxsize=1)
def load_config(path: Path = CONFIG_FILE) -> DeploymentConfig:
    values: dict[str, object] = {}
    if path.exists():
        values.update(tomllib.loads(path.read_text(encoding="utf-8")).get("explorer", {}))
    for field in fields(DeploymentConfig):
        env = os.environ.get(f"EXPLORER_{field.name.upper()}")
        if env is not None:
            values[field.name] = env
    field_types = {f.name: type(f.default) for f in fields(DeploymentConfig)}
    coerced: dict[str, Any] = {k: _coerce(v, field_types[k]) for k, v in values.items() if k in field_types}
    return DeploymentConfig(**coerced)
