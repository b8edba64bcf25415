"""umap-learn with numba's on-disk cache turned on for its own compiled functions.

umap-learn compiles its functions with numba in every new process and keeps none (11-27, this machine: a first fit
of 2,000 points took 14 s against 4 s for the next one, and a first `transform` 10.6 s against 0.7 s), so the app's
first UMAP map after a start, each command and each Ray actor placing rows paid it again. Cached (numba writes them
beside umap-learn's modules, or under NUMBA_CACHE_DIR), a new process loads them instead. pynndescent, which
umap-learn uses above 4,096 points, caches its own, except those compiled for a distance passed as an argument:
numba cannot key those across processes, so they are still compiled once per process."""

from __future__ import annotations

import sys
from functools import cache
from types import ModuleType
from typing import Any


def umap_functions() -> list[Any]:
    """The numba functions (dispatchers) defined in umap-learn's modules imported so far."""
    from numba.core.dispatcher import Dispatcher

    return [value for name, module in list(sys.modules.items()) if name.split(".")[0] == "umap"
            for value in vars(module).values() if isinstance(value, Dispatcher) and value.__module__ == name]


@cache
def umap_module() -> ModuleType:
    """`umap`, imported, with every numba function defined in its modules caching its compiled code on disk."""
    import umap

    for function in umap_functions():
        function.enable_caching()
    return umap
