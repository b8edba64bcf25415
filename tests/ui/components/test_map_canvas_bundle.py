"""The map canvas's JavaScript is committed built (frontend/dist/: map_canvas.js for Streamlit, map_widget.js for a
notebook, map_file.js for a map saved as one HTML file), so that neither `make run` nor the notebook needs Node; this
checks that all three are what the lock file and the source build, with one `npm run build`."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from ui.components.map_canvas import BUNDLE, FRONTEND

pytestmark = pytest.mark.slow
SOURCES = ("package.json", "package-lock.json", "vite.config.js", "src")


def test_the_committed_bundle_is_what_the_lock_file_builds(tmp_path):
    if shutil.which("npm") is None:
        message = "npm (Node 20) is missing: the check that the committed map canvas is built from its source needs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    for name in SOURCES:  # a copy without node_modules/ and dist/: a clean install from the lock
        source = FRONTEND / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    for command in (["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], ["npm", "run", "build", "--silent"]):
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    built, committed = tmp_path / "dist", BUNDLE.parent
    names = sorted(path.name for path in built.iterdir())
    assert names == ["map_canvas.js", "map_file.js", "map_widget.js"]
    assert names == sorted(path.name for path in committed.iterdir()), "dist/ holds other files than the build makes"
    for name in names:
        assert (built / name).read_bytes() == (committed / name).read_bytes(), (
            f"{(committed / name).relative_to(FRONTEND.parents[3])} is not what frontend/'s source and lock file "
            "build: run `make canvas` and commit the rebuilt file.")
