"""Forks of the test process, counted: a server forks nothing (core.threads, `log_forks`), so a test of anything the
app runs can check that it started no process."""

from __future__ import annotations

import os
import threading

_COUNT = [0]
_REGISTERED = threading.Event()
_LOCK = threading.Lock()


def forks() -> int:
    """How many times this process has forked since the first call (os.fork, multiprocessing's fork start method)."""
    with _LOCK:
        if not _REGISTERED.is_set():
            os.register_at_fork(before=lambda: _COUNT.__setitem__(0, _COUNT[0] + 1))
            _REGISTERED.set()
    return _COUNT[0]
