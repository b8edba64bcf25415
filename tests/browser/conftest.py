"""One app server and one Chromium for the whole browser run; each test gets a fresh browser context.

After every test the server's log must hold no traceback. Screenshots go to screenshots/browser/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.harness import CHART, CHROMIUM, EXCEPTION, ROOT, VIEWPORT, launch_chromium, shoot, \
    start_server, wait_for_idle

SHOTS = ROOT / "screenshots" / "browser"


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: run `bash scripts/ensure-chromium.sh` (or apt-get install chromium)")
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


@pytest.fixture
def page(chromium, server):
    context = chromium.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(600_000)
    yield page
    context.close()


def open_page(page, server, path: str, timeout_s: float = 120) -> None:
    page.goto(f"{server.url}/{path}")
    wait_for_idle(page, timeout_s)


def check_and_shoot(page, name: str, *, chart: bool = True) -> Path:
    """No exception box, a drawn Plotly chart (unless `chart` is False), and a full-page screenshot."""
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
    if chart:
        page.wait_for_selector(CHART, state="attached")
        assert page.locator(CHART).count() > 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    shoot(page, path)
    return path
