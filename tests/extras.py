"""What a test needs that `make test` alone does not install (Chromium, the Ray extra, the loopback hub server, the
12-layer model): a skip with the command that installs it, except under CI=1, whose .ci/run installs all of them, so
that a failed install fails the run instead of hiding behind a skip."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def missing(what: str) -> None:
    """Skip (or, under CI, fail) for `what`: a sentence naming what is missing and the command that installs it."""
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI installs it, so a skip here would hide a failed install", pytrace=False)
    pytest.skip(what, allow_module_level=True)


def extra_module(name: str, what: str) -> ModuleType:
    """The optional extra's module, imported; else `missing(what)`."""
    try:
        return importlib.import_module(name)
    except ImportError as err:
        missing(f"{what} ({err})")
        raise  # missing() never returns


