"""Model folders that name code of their own (which this app never runs): the tiny SentenceTransformer with an
auto_map in its config.json, or with a module of its own in its modules.json, each beside a file of that code that
would end the process if it ever ran."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

RAISES = "raise SystemExit('the model's own code ran')\n"
AUTO_MAP_SAID = "its config.json maps AutoModel to modeling_custom.CustomModel"
MODULE_SAID = "its modules.json names the module custom_pooling.FancyPooling"


def with_auto_map(source: Path, folder: Path) -> Path:
    shutil.copytree(source, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps(config | {"auto_map": {"AutoModel": "modeling_custom.CustomModel"}}))
    (folder / "modeling_custom.py").write_text(RAISES)
    return folder


def with_custom_module(source: Path, folder: Path) -> Path:
    shutil.copytree(source, folder)
    modules = json.loads((folder / "modules.json").read_text())
    modules[1]["type"] = "custom_pooling.FancyPooling"
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / "custom_pooling.py").write_text(RAISES)
    return folder


def refusal(model_id: str, said: str) -> str:
    return (f"'{model_id}' needs code of its own to load ({said}), and this app never runs a model's own code, so it "
            "was refused; pick another model.")
