"""Thirty students on one server at once: no errors, nobody sees another's texts, memory stays bounded.
The timings (p50, p95 against one student alone, and with a fine-tuning run going) are `make bench` rows."""

from __future__ import annotations

import pytest

from core.data.stsb import stsb_corpus
from tests.browser.harness import ROOT, start_server
from tests.load.classroom import STRESS_THINK, run_class
from tests.views.cache_fill import prefill

pytestmark = pytest.mark.load
STUDENTS = 30
MEMORY_LIMIT_MB = 1_536


@pytest.fixture(scope="module")
def server(minilm):
    prefill(minilm, stsb_corpus())  # Retrieval's corpus stored, as the server's warm-up leaves it
    running = start_server(ROOT / "screenshots" / "load" / "server.log")
    yield running
    running.stop()


def test_thirty_students_at_once_each_see_their_own_texts_without_errors_in_bounded_memory(server):
    run_class(server.url, 1, server.rss_mb, think=(0.0, 0.0))  # the teacher's demo: every page opened once first
    # at the stress pace: the most sessions at once for leaks and memory, in a quarter of the class pace's 80 s
    report = run_class(server.url, STUDENTS, server.rss_mb, think=STRESS_THINK)
    print(f"{STUDENTS} students: change → script finished p50 {report.quantile(0.5):.2f} s, "
          f"p95 {report.quantile(0.95):.2f} s; server peak {report.peak_rss_mb:.0f} MB")
    assert len(report.timings) == STUDENTS * 6
    assert not report.errors, [f"{t.session}: {t.what}" for t in report.errors]
    assert not report.leaks, report.leaks
    assert report.peak_rss_mb < MEMORY_LIMIT_MB, f"server peak {report.peak_rss_mb:.0f} MB"
    assert "Traceback" not in server.log()
