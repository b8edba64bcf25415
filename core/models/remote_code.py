"""Whether a model asks to run code of its own, which this app never does: its config.json maps transformers' Auto
classes to its own modules (`auto_map`), or its modules.json names a module that is not sentence-transformers' own.
A hub model is checked before its weights are downloaded (from the two files at the commit the download would fetch),
and every folder again where it is resolved, so such a model is refused in one sentence instead of loading without
its code (transformers loads its own class of the same model type silently) or failing deep in a load."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.models.catalog import ModelUnavailable

if TYPE_CHECKING:
    from core.models.download import DownloadPlan

CODE_FILES = ("config.json", "modules.json")
# modules of other libraries that sentence-transformers itself reads as its own, never importing them: a PyLate
# checkpoint's projection (MultiVectorEncoder's _CLASS_REF_ALIASES, imported only where a model loads)
READ_AS_OWN = ("pylate.models.Dense.Dense",)


def own_code(config: Any, modules: Any) -> str | None:
    """What in a model's config.json and modules.json (as parsed, or None where absent) names code of its own, said
    for the refusal; None when nothing does."""
    auto_map = config.get("auto_map") if isinstance(config, dict) else None
    if auto_map:
        named = next(iter(auto_map.values()))
        return f"its config.json maps {next(iter(auto_map))} to {named if isinstance(named, str) else named[0]}"
    for module in modules if isinstance(modules, list) else []:
        module_type = module.get("type", "") if isinstance(module, dict) else ""
        if not module_type.startswith("sentence_transformers.") and module_type not in READ_AS_OWN:
            return f"its modules.json names the module {module_type}"
    return None


def own_code_refusal(model_id: str, what: str | None = None) -> ModelUnavailable:
    said = "" if what is None else f" ({what})"
    return ModelUnavailable(f"'{model_id}' needs code of its own to load{said}, and this app never runs a model's "
                            "own code, so it was refused; pick another model.")


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    except ValueError:  # not JSON: whatever loads the folder says so
        return None


def refuse_own_code(model_id: str, folder: Path) -> None:
    """ModelUnavailable when the folder's files name code of its own."""
    found = own_code(*(_read(folder / name) for name in CODE_FILES))
    if found is not None:
        raise own_code_refusal(model_id, found)


def refuse_own_code_before_download(plan: DownloadPlan) -> None:
    """The same check on the plan's commit, reading only its config.json and modules.json (into a temporary folder, so
    that a refused model leaves nothing in the cache), before any weights come down. A file that cannot be read here
    leaves the check to the folder, once downloaded."""
    from huggingface_hub import hf_hub_download

    parsed: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="explorer-config-") as scratch:
        for name in CODE_FILES:
            try:
                parsed.append(_read(Path(hf_hub_download(plan.repo, name, revision=plan.commit, local_dir=scratch)))
                              if name in plan.sizes else None)
            except Exception:  # the hub and its transport raise many exception types; the download then says what fails
                return
    found = own_code(*parsed)
    if found is not None:
        raise own_code_refusal(plan.repo, found)
