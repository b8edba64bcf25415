"""One app server and one Chromium for the whole browser run (per pytest-xdist worker: the browser group runs on one,
test_datasets.py with the Ray group on the other); each test gets a fresh browser context.

After every test the server's log must hold no traceback and no fork (the served app logs any: core.threads,
`log_forks`). Screenshots go to screenshots/browser/."""

from __future__ import annotations

import pytest

from core.threads import FORK_LINE
from tests.browser.harness import CHROMIUM, SHOTS, VIEWPORT, is_loopback, launch_chromium, start_server
from tests.extras import missing


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: run `bash scripts/ensure-chromium.sh` (or apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def server(chromium):
    app = start_server(SHOTS / "server.log")
    yield app
    app.stop()


@pytest.fixture(autouse=True)
def no_traceback_in_server_log(server):
    start = len(server.log())
    yield
    new = server.log()[start:]
    assert "Traceback" not in new, f"the server logged a traceback:\n{new[new.index('Traceback'):][:3000]}"
    assert FORK_LINE not in new, f"the server forked a process:\n{new[new.index(FORK_LINE):][:3000]}"


@pytest.fixture
def page(chromium, server):
    """A fresh browser context; the test fails if the app made any request outside this machine."""
    context = chromium.new_context(viewport=VIEWPORT)
    outside: list[str] = []
    context.on("request", lambda request: outside.append(request.url) if not is_loopback(request.url) else None)
    page = context.new_page()
    page.set_default_timeout(600_000)
    yield page
    context.close()
    assert not outside, f"the app made requests outside the machine: {sorted(set(outside))[:5]}"

