"""`python -m core embed …` with a test-only hook that says on stderr where the run is, so that a test sends its
Ctrl-C at a point of the run instead of at a time, which would race it:

    python -m tests.core.scale.interrupted_run between-batches|shutdown SIGNALS embed ARGUMENTS…

`between-batches`: once the first batch back from Ray is written (the progress line's first update, after the files
it completed are moved into place and listed, before the command asks whether Ctrl-C came), the command says HELD and
waits there for SIGNALS Ctrl-Cs (1 or 2; at most two minutes), as a slow write would, while Ray's actors go on with
the other batches. After the first the wait ends and the run goes on to its next safe point; a second raises in the
wait, as it would wherever the command was.
`shutdown`: the command says SHUTTING when it calls `ray.shutdown` (the last batch written, the loop ended) and
SHUT when that returns, so a test can send Ctrl-C inside it and see that it came there; nothing waits.

Also `watch_children`, for a test that runs such a command: the processes it starts, as they come and go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil

HELD = "test hook: the first batch is written; waiting for Ctrl-C\n"
SHUTTING = "test hook: ray.shutdown begins\n"
SHUT = "test hook: ray.shutdown returned\n"
HOLD_AT_MOST = 120.0


def _say(line: str) -> None:
    os.write(2, line.encode())  # unbuffered, in order with the command's own Ctrl-C line (os.write on fd 2 too)


def _ctrl_c_asked() -> bool:
    """Whether the command's Ctrl-C handler (core.cli.ctrl_c.CtrlC._handle, a bound method) has heard one."""
    handler = signal.getsignal(signal.SIGINT)
    return bool(getattr(getattr(handler, "__self__", None), "asked", False))


def hold_between_batches(signals: int) -> None:
    from core.cli.progress_line import ProgressLine

    update = ProgressLine.update
    held = False

    def updating(self: ProgressLine, done: int, total: int) -> None:
        nonlocal held
        update(self, done, total)
        if held:
            return
        held = True
        _say(HELD)
        deadline = time.monotonic() + HOLD_AT_MOST
        while time.monotonic() < deadline and not (signals == 1 and _ctrl_c_asked()):
            time.sleep(0.01)  # where a second Ctrl-C raises KeyboardInterrupt

    ProgressLine.update = updating


def mark_shutdown() -> None:
    import ray

    shutdown = ray.shutdown

    def shutting(*args, **kwargs):
        _say(SHUTTING)
        shutdown(*args, **kwargs)
        _say(SHUT)

    ray.shutdown = shutting  # core.scale.ray_embed calls ray.shutdown through the module; Ray's atexit keeps its own


def watch_children(run: subprocess.Popen, seen: dict[psutil.Process, str]) -> None:
    """Every process below `run`, with its latest command line (a Ray worker names its actor in it once the actor
    starts), until `run` ends."""
    parent = psutil.Process(run.pid)
    while run.poll() is None:
        try:
            for child in parent.children(recursive=True):
                seen[child] = " ".join(child.cmdline()) or seen.get(child, "")
        except psutil.Error:  # a process that ended meanwhile
            pass
        time.sleep(0.2)


if __name__ == "__main__":
    point, signals, *command = sys.argv[1:]
    if point == "between-batches":
        hold_between_batches(int(signals))
    elif point == "shutdown":
        mark_shutdown()
    else:
        raise SystemExit(f"no such point: {point}")
    from core.cli import main

    sys.exit(main(command))
