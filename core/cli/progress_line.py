"""A command's progress as one line: rewritten in place on a terminal, with other lines printed above it; in a log
or a pipe, a new line at most every `every` seconds and when the work is done."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from core.progress import progress_text

CLEAR = "\r\x1b[K"  # back to the line's start, and erase it


class ProgressLine:
    def __init__(self, stream: TextIO, every: float = 10.0,
                 describe: Callable[[int, int, float], str] = progress_text) -> None:
        """`describe(done, total, seconds so far)` is the line's text (by default counts of texts)."""
        self.stream, self.every, self.describe = stream, every, describe
        self.terminal = stream.isatty()
        self.start = time.perf_counter()
        self.printed_at: float | None = None
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        now = time.perf_counter()
        text = self.describe(done, total, now - self.start)
        if self.terminal:
            self.stream.write(CLEAR + text)
            self.drawn = True
        elif done >= total or self.printed_at is None or now - self.printed_at >= self.every:
            self.stream.write(text + "\n")
            self.printed_at = now
        self.stream.flush()

    def say(self, line: str) -> None:
        """A line of its own, above the progress line."""
        self.stream.write((CLEAR if self.drawn else "") + line + "\n")
        self.drawn = False
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.drawn = False
        self.stream.flush()
