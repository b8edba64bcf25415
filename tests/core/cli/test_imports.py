"""What the command line imports, each time in a fresh interpreter: building the parser (every command's, for
`--help`) and parsing the arguments (argparse's refusals) import none of the heavy libraries, so that help and a
refusal come back at once; a command's run imports only what it needs. The speed itself is measured by bench/cli.py,
not asserted here."""

import json
import subprocess
import sys

import numpy as np
import pytest

from core.cli import COMMANDS
from tests.conftest import ROOT

HEAVY = {"torch", "transformers", "sentence_transformers", "sklearn", "scipy", "pandas", "pyarrow", "numpy"}

# Runs main() on each argv given (a JSON list of lists) in this one interpreter and prints, for each, its exit status,
# its stderr and the heavy libraries loaded so far: the first argv whose list is not empty is the one that loaded them.
PARSED = """
import contextlib, io, json, sys
from core.cli import main
heavy = set(json.loads(sys.argv[1]))
found = []
for argv in json.loads(sys.argv[2]):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code
    found.append([argv, status, err.getvalue(), sorted({name.split(".")[0] for name in sys.modules} & heavy)])
print(json.dumps(found))
"""

HELP = [["--help"], *([name, "--help"] for name in COMMANDS), ["evaluate", "sts", "--help"],
        ["evaluate", "retrieval", "--help"]]
REFUSED = [
    ["evaluate", "sts", "--split", "nope"],
    ["evaluate", "retrieval", "--split", "dev", "--k", "0"],  # --k's own parser (core.evaluation.cutoffs)
    ["evaluate", "retrieval", "--split", "dev", "--quantize", "float32"],
    ["embed", "--model", "m", "--pooling", "median", "--input", "a", "--output", "b"],
    ["embed", "--model", "m", "--input", "a"],
    ["search", "--model", "m", "--query", "q", "--k", "0"],
    ["project", "--input", "a", "--output", "b", "--method", "tsne"],
    ["finetune", "--model", "m", "--data", "stsb", "--objective", "triplet"],
    ["distill", "--model", "m", "--pca-dims", "0"],
    ["compare", "--model-a", "m", "--pooling-b", "median"],
    ["rerank", "--model", "m", "--query", "q"],
    ["explain", "--model", "m", "--a", "x", "--b", "y", "--method", "lime"],
    ["models", "--jsn"],
    ["nope"],
    [],
]


def _parsed(argvs: list[list[str]]) -> list[list]:
    result = subprocess.run([sys.executable, "-c", PARSED, json.dumps(sorted(HEAVY)), json.dumps(argvs)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_help_of_every_command_imports_no_heavy_library():
    found = _parsed(HELP)
    assert [argv for argv, *_ in found] == HELP
    for argv, status, err, heavy in found:
        assert (status, err, heavy) == (0, "", []), argv


def test_argparses_refusals_are_one_line_with_status_2_and_import_no_heavy_library():
    for argv, status, err, heavy in _parsed(REFUSED):
        assert status == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, (argv, err)
        assert heavy == [], argv


# A real `embed` run, recording which module first imported each library watched (None: never imported).
EMBEDDED = """
import importlib.abc, json, sys
from core.cli import main
watched = set(json.loads(sys.argv[1]))
importer = {}

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        if top in watched and top not in importer:
            frame, loading = sys._getframe(1), False  # an import, not a look (importlib.util.find_spec: is it there?)
            while frame is not None and frame.f_globals.get("__name__", "").startswith(("importlib", "_frozen")):
                loading, frame = loading or frame.f_code.co_name == "_find_and_load", frame.f_back
            if loading:
                importer[top] = None if frame is None else frame.f_globals.get("__name__")
        return None

sys.meta_path.insert(0, Watch())
status = main(sys.argv[2:])
print(json.dumps({"status": status, "importer": importer}))
"""
# The libraries of other commands and of the app (the map's, Ray, BM25, model2vec, the plots, faiss, ONNX Runtime)
UNNEEDED = {"openTSNE", "umap", "numba", "pynndescent", "ray", "bm25s", "model2vec", "plotly", "matplotlib", "faiss",
            "onnxruntime", "streamlit"}


@pytest.mark.slow
def test_a_real_embed_run_loads_none_of_the_libraries_it_does_not_need(tmp_path):
    source, out = tmp_path / "in.txt", tmp_path / "out.npy"
    source.write_text("first line\n\nthird line\n", encoding="utf-8")
    argv = ["embed", "--model", "all-MiniLM-L6-v2", "--input", str(source), "--output", str(out)]
    result = subprocess.run([sys.executable, "-c", EMBEDDED, json.dumps(sorted(UNNEEDED | {"sklearn"})), *argv],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["status"] == 0 and np.load(out).shape == (3, 384)
    assert not found["importer"].keys() & UNNEEDED, found["importer"]
    # embed needs no scikit-learn, and core imports none for it; sentence-transformers' own __init__ does, though
    # (its util.similarity imports sklearn.metrics), so a run that loads a model has it: from there only
    importer = found["importer"].get("sklearn")
    assert importer is None or importer.startswith("sentence_transformers."), found["importer"]
