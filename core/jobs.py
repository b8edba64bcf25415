"""Heavy work off the interactive path: one queue of jobs run by one worker thread (so one heavy job at a time),
shared by every session of the server. A job is named by a key, so two sessions asking for the same work (one
corpus's embeddings) get one computation; each can see its place in the queue and its progress. While any
session's page is running, the worker pauses between steps (for at most MAX_DEFER_S each, so a busy class does not
starve it), so interactive requests go first. A job can be cancelled: a queued one never starts, a running one stops
at its next progress report. Downloads have a queue of their own (DOWNLOADS): waiting on the network, they neither
wait behind heavy work nor pause for pages."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

Progress = Callable[[int, int], None]
KEEP_FINISHED = 32
PAUSE_S = 0.05
MAX_DEFER_S = 2.0
JobState = Literal["queued", "running", "done", "failed", "cancelled"]


class JobCancelled(BaseException):
    """Raised by a cancelled job's progress report, to end its work. A BaseException (as asyncio's CancelledError is),
    so the work's own `except Exception` does not take it for a failure to report."""


@dataclass
class Job:
    key: Hashable
    description: str
    work: Callable[[Progress], Any]
    state: JobState = "queued"
    done: int = 0
    total: int = 0
    result: Any = None
    error: str | None = None
    failure: Exception | None = None  # what `error` says, for a caller that says it its own way
    started: float = 0.0  # time.monotonic() when the worker took it
    finished: threading.Event = field(default_factory=threading.Event)
    cancel_requested: threading.Event = field(default_factory=threading.Event)


class JobQueue:
    def __init__(self, *, yields_to_pages: bool = True) -> None:
        self._yields = yields_to_pages
        self._lock = threading.Lock()
        self._waiting: list[Job] = []
        self._jobs: dict[Hashable, Job] = {}
        self._finished: list[Hashable] = []
        self._wake = threading.Condition(self._lock)
        self._interactive = 0
        self._worker: threading.Thread | None = None

    def submit(self, key: Hashable, description: str, work: Callable[[Progress], Any]) -> Job:
        """The job for `key`: the one already queued, running or done, else (none, or it failed or was cancelled) a new
        one at the end of the queue."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state not in ("failed", "cancelled"):
                return job
            job = Job(key, description, work)
            self._jobs[key] = job
            self._waiting.append(job)
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._run, name="explorer-jobs", daemon=True)
                self._worker.start()
            self._wake.notify()
            return job

    def place(self, job: Job) -> int:
        """0 while it runs (or has run), else how many jobs are ahead of it plus one."""
        with self._lock:
            return self._waiting.index(job) + 1 if job in self._waiting else 0

    def cancel(self, job: Job) -> None:
        """A queued job is dropped at once; a running one stops at its next progress report (JobCancelled)."""
        with self._lock:
            job.cancel_requested.set()
            if job not in self._waiting:
                return
            self._waiting.remove(job)
            job.state = "cancelled"
        self._finish(job)

    @contextmanager
    def interactive(self) -> Iterator[None]:
        """Mark a page run: the worker waits between steps until no page is running."""
        with self._lock:
            self._interactive += 1
        try:
            yield
        finally:
            with self._lock:
                self._interactive -= 1
                self._wake.notify_all()

    def _yield_to_pages(self) -> None:
        until = time.monotonic() + MAX_DEFER_S
        with self._lock:
            while self._interactive > 0 and time.monotonic() < until:
                self._wake.wait(PAUSE_S)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting:
                    self._wake.wait()
                job = self._waiting.pop(0)
                job.state, job.started = "running", time.monotonic()

            def progress(done: int, total: int, job: Job = job) -> None:
                if job.cancel_requested.is_set():
                    raise JobCancelled
                job.done, job.total = done, total
                if self._yields:
                    self._yield_to_pages()

            try:
                if self._yields:
                    self._yield_to_pages()
                job.result = job.work(progress)
                job.state = "done"
            except JobCancelled:
                job.state = "cancelled"
            except Exception as err:  # a failed job says why; the next request for it tries again
                job.error, job.failure, job.state = f"{type(err).__name__}: {err}", err, "failed"
            self._finish(job)

    def _finish(self, job: Job) -> None:
        job.finished.set()
        with self._lock:
            self._finished.append(job.key)
            while len(self._finished) > KEEP_FINISHED:
                self._jobs.pop(self._finished.pop(0), None)

    def unfinished(self) -> list[Job]:
        with self._lock:
            return [job for job in self._jobs.values() if not job.finished.is_set()]

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is queued or running; False if that takes longer than `timeout` seconds."""
        until = time.monotonic() + timeout
        while busy := self.unfinished():
            if not busy[0].finished.wait(max(0.0, until - time.monotonic())):
                return False
        return True


JOBS = JobQueue()
DOWNLOADS = JobQueue(yields_to_pages=False)
