"""notebooks/explore.ipynb, the example `make notebook` opens: saved without outputs and naming its kernel, and run top
to bottom headless by nbclient (a kernel of this interpreter, offline), every cell without an error, the map a
widget whose last highlight counts the sample's texts that hold "guitar" (counted here with pandas)."""

from __future__ import annotations

import json

import pytest

from core.data.stsb import stsb_sample
from tests.conftest import ROOT
from tests.extras import extra_module

NOTEBOOK = ROOT / "notebooks" / "explore.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_example_is_saved_without_outputs_and_names_its_kernel():
    saved = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert saved["metadata"]["kernelspec"]["name"] == "python3"
    code = [cell for cell in saved["cells"] if cell["cell_type"] == "code"]
    assert code and all(cell["outputs"] == [] and cell["execution_count"] is None for cell in code)
    source = "".join("".join(cell["source"]) for cell in code)
    for part in ("ex.embed(", "ex.similarity(", "ex.layers(", "ex.search(", "ex.recall(", "ex.why(", "ex.compare(",
                 "ex.map(", "m.selection", "m.highlight("):
        assert part in source, f"the example does not show {part}"


@pytest.mark.slow
def test_the_example_runs_top_to_bottom_headless(monkeypatch):
    nbformat = extra_module("nbformat", "The notebook extra is missing: run `make notebook-extra`")
    nbclient = extra_module("nbclient", "The notebook extra is missing: run `make notebook-extra`")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # as `make notebook` runs it
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    assert sum(WIDGET_VIEW in output.get("data", {}) for output in outputs) == 1  # the map
    last = notebook.cells[-1].outputs[-1]["data"]["text/plain"]
    texts = stsb_sample(1_000)["text"]
    assert int(last) == texts.str.contains("guitar", case=False, regex=False).sum() > 0
