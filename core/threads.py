"""The thread pools of a process serving many sessions at once."""

from __future__ import annotations

from threadpoolctl import threadpool_info, threadpool_limits


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
