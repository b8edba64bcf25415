"""A new process fitting and placing a UMAP loads umap-learn's compiled functions from numba's disk cache, which
this process filled as it drew the same map, and draws it alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.analysis.map.projection import fit_umap

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[4]
FIT_AND_PLACE = """
import json
import numpy as np
from core.analysis.map.umap_compiled import umap_functions, umap_module
from tests.core.analysis.map.test_umap_compiled import drawn

def looked_up():  # umap-learn's functions' cache hits and misses so far
    stats = [function.stats for function in umap_functions()]
    return np.array([sum(sum(s.cache_hits.values()) for s in stats), sum(sum(s.cache_misses.values()) for s in stats)])

umap_module()
at_import = looked_up()  # the few with explicit types are compiled as umap-learn is imported, before any cache is on
coords = drawn()
hits, misses = (looked_up() - at_import).tolist()
print(json.dumps({"hits": hits, "misses": misses, "coords": coords.tolist()}))
"""


def drawn() -> np.ndarray:
    """30 points fitted and 10 placed by the fitted UMAP."""
    vectors = np.random.default_rng(0).normal(size=(40, 8))
    fit = fit_umap(vectors[:30], neighbours=5)
    return np.concatenate([fit.coords, fit.place(vectors[30:])])


def test_a_new_process_loads_umaps_compiled_functions_from_disk_and_draws_the_same_map():
    here = drawn()  # compiled in this process (or loaded) and written to the cache
    run = subprocess.run([sys.executable, "-c", FIT_AND_PLACE], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=True)
    there = json.loads(run.stdout.strip().splitlines()[-1])
    assert there["hits"] > 0 and there["misses"] == 0  # nothing compiled again
    np.testing.assert_array_equal(np.array(there["coords"]), here)
