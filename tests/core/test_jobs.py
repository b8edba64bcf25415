import threading
import time

from core.jobs import JobQueue


def test_the_same_key_is_one_computation_shared_by_everyone_who_asks():
    queue, runs = JobQueue(), []
    first = queue.submit("corpus", "embed", lambda progress: runs.append(1) or 42)
    second = queue.submit("corpus", "embed", lambda progress: runs.append(2) or 43)
    assert first is second and first.finished.wait(5)
    assert first.result == 42 and runs == [1] and first.state == "done"


def test_jobs_run_one_at_a_time_in_order_and_say_their_place():
    queue, order, gate = JobQueue(), [], threading.Event()
    blocker = queue.submit("a", "first", lambda progress: gate.wait(5) and order.append("a"))
    second = queue.submit("b", "second", lambda progress: order.append("b"))
    third = queue.submit("c", "third", lambda progress: order.append("c"))
    time.sleep(0.2)
    assert (queue.place(blocker), queue.place(second), queue.place(third)) == (0, 1, 2)
    gate.set()
    assert third.finished.wait(5) and order == ["a", "b", "c"]


def test_progress_is_reported_and_a_failure_is_said_and_tried_again_on_the_next_request():
    queue = JobQueue()

    def work(progress):
        progress(3, 4)
        raise RuntimeError("disk full")

    job = queue.submit("x", "work", work)
    assert job.finished.wait(5)
    assert (job.state, job.error, job.done, job.total) == ("failed", "RuntimeError: disk full", 3, 4)
    again = queue.submit("x", "work", lambda progress: "ok")
    assert again is not job and again.finished.wait(5) and again.result == "ok"


def test_the_worker_waits_between_steps_while_a_page_runs():
    queue, steps = JobQueue(), []

    def work(progress):
        for i in range(3):
            steps.append(i)
            progress(i + 1, 3)

    with queue.interactive():
        job = queue.submit("y", "work", work)
        time.sleep(0.3)
        assert steps == []  # it has not started while the page runs
    assert job.finished.wait(5) and steps == [0, 1, 2]


def test_a_page_that_never_stops_running_delays_each_step_only_so_long(monkeypatch):
    monkeypatch.setattr("core.jobs.MAX_DEFER_S", 0.2)
    queue = JobQueue()
    with queue.interactive():
        job = queue.submit("z", "work", lambda progress: progress(1, 1) or "done")
        assert job.finished.wait(5) and job.result == "done"


def test_wait_idle_returns_when_every_job_has_finished():
    queue, gate = JobQueue(), threading.Event()
    jobs = [queue.submit("a", "slow", lambda progress: gate.wait(5)), queue.submit("b", "after", lambda progress: None)]
    assert not queue.wait_idle(0.2)
    gate.set()
    assert queue.wait_idle(5) and all(job.state == "done" for job in jobs)


def test_a_queued_job_cancelled_never_runs_and_the_next_request_starts_it_again():
    queue, gate, runs = JobQueue(), threading.Event(), []
    queue.submit("a", "first", lambda progress: gate.wait(5))
    waiting = queue.submit("b", "second", lambda progress: runs.append("b"))
    queue.cancel(waiting)
    assert waiting.finished.is_set() and waiting.state == "cancelled" and queue.place(waiting) == 0
    again = queue.submit("b", "second", lambda progress: runs.append("again") or "ok")
    assert again is not waiting
    gate.set()
    assert again.finished.wait(5) and again.result == "ok" and runs == ["again"]


def test_a_running_job_cancelled_stops_at_its_next_progress_report_even_inside_a_broad_except():
    queue, started, steps = JobQueue(), threading.Event(), []

    def work(progress):
        for step in range(100):
            try:
                progress(step, 100)
            except Exception:  # a cancel is no failure that work could swallow
                steps.append("swallowed")
            steps.append(step)
            started.set()
            time.sleep(0.01)

    job = queue.submit("long", "work", work)
    assert started.wait(5)
    queue.cancel(job)
    assert job.finished.wait(5) and job.state == "cancelled" and job.error is None
    assert "swallowed" not in steps and len(steps) < 100


def test_a_queue_that_does_not_yield_to_pages_runs_while_a_page_does():
    queue = JobQueue(yields_to_pages=False)
    with queue.interactive():
        job = queue.submit("download", "work", lambda progress: progress(1, 1) or "done")
        assert job.finished.wait(1) and job.result == "done"
