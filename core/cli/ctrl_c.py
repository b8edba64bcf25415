"""Ctrl-C for a command that stops at a point of its own choosing."""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType, TracebackType
from typing import Any

ASKED = "Ctrl-C: stopping once the batch under way is written; press it again to stop at once.\n"


class CtrlC:
    """While the block runs in the main thread, the first Ctrl-C (SIGINT) only sets `asked`, which the work reads
    at its own safe points, and says so on stderr; a second raises KeyboardInterrupt at once, which ends the block
    (and goes no further: `asked` says it came). Python's own handler raises wherever the main thread is, and a
    KeyboardInterrupt raised in an exit handler (Ray registers one) is printed and dropped, with exit status 0."""

    def __init__(self) -> None:
        self.asked = False
        self._installed = False
        self._previous: Any = signal.default_int_handler
        self._stderr = -1  # a copy of stderr's descriptor, which code that silences stderr meanwhile leaves alone

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        os.write(self._stderr, ASKED.encode())  # unbuffered: the handler may run inside another write to stderr

    def __enter__(self) -> CtrlC:
        self._installed = threading.current_thread() is threading.main_thread()  # where Python runs handlers
        if self._installed:
            self._stderr = os.dup(2)
            self._previous = signal.signal(signal.SIGINT, self._handle) or signal.default_int_handler
        return self

    def __exit__(self, error_type: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> bool:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            os.close(self._stderr)
        if error_type is not None and issubclass(error_type, KeyboardInterrupt):
            self.asked = True
            return True
        return False
