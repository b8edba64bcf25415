"""The threads of a process serving many sessions at once: its BLAS on one thread, work shared out among threads
(never processes), and a line in its log for any fork."""

from __future__ import annotations

import os
import sys
import traceback

from joblib import Parallel
from threadpoolctl import threadpool_info, threadpool_limits

WORKERS = 2  # threads heavy work is shared out among (this machine's cores)
FORK_LINE = "A process forked in the server"  # the start of the log's line for a fork (the browser tests look for it)


def one_blas_thread() -> None:
    """numpy's and scipy's BLAS (OpenBLAS) on one thread from now on, for the whole process. A server's products are
    small (a query against a corpus, a pair's tokens), and torch runs forward passes beside them: measured on two
    cores, a one-query product over 7,977 vectors took 63 ms with BLAS's two threads while torch worked in another
    thread (each library's threads spinning while they wait for the other's), against 0.5 ms on one thread."""
    threadpool_limits(1, user_api="blas")


def blas_threads() -> str:
    """What each BLAS loaded in this process runs on, as a server's log says it: "openblas 1" for each."""
    return ", ".join(f"{pool['internal_api']} {pool['num_threads']}" for pool in threadpool_info()
                     if pool["user_api"] == "blas") or "none loaded"


def shared_out(tasks: list, workers: int = WORKERS) -> list:
    """joblib's delayed calls run on `workers` threads, each thread's BLAS on one.

    Threads, not processes: scikit-learn's fits spend their time in compiled code that lets go of the GIL (7 layers of
    2,000 texts: 6.1 s on two threads, 6.6 s on two processes, 9.9 s on one), and a server starts no processes of its
    own. BLAS on one thread: two threads each running OpenBLAS on two threads spin and wait for each other (the whole
    probe view of 2,000 texts took 164 s, against 11.3 s so; a server's BLAS is on one thread already)."""
    with threadpool_limits(1, user_api="blas"):
        return Parallel(n_jobs=max(1, min(workers, len(tasks))), backend="threading")(tasks)


def _said_fork() -> None:
    where = "".join(traceback.format_stack(limit=12)[:-1])
    sys.stderr.write(f"{FORK_LINE} (pid {os.getpid()}); the server must fork nothing. Called from:\n{where}")
    sys.stderr.flush()


def log_forks() -> None:
    """From now on, every fork of this process (os.fork, a multiprocessing pool) writes FORK_LINE and where it was
    called from to the log. A fork beside other threads copies the locks they hold, and its child can wait on one for
    ever: the server forks nothing, and this makes a library that does say so (the browser tests fail on the line).
    A subprocess started by fork and exec at once (subprocess.Popen) runs no fork hooks, and copies no lock."""
    os.register_at_fork(before=_said_fork)
