"""Drive the app in a real browser: start `streamlit run app.py` on a free loopback port, launch Debian's
Chromium through Playwright, and wait until a script run has finished. Used by the browser tests and by
scripts/screenshot.py (one way to do it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from tests.browser.accessibility import assert_accessible
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}
BUSY = "[data-testid='stSkeleton'], [data-testid='stSpinner'], [class*='st-key-background-job-']"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning'][data-test-connection-state='CONNECTED']"
CHART = (".js-plotly-plot .main-svg, .js-plotly-plot canvas, [data-testid='stPlotlyChart'] canvas, "
         ".explorer-map canvas.points")
EXCEPTION = "[data-testid='stException']"
SHOTS = ROOT / "screenshots" / "browser"


@dataclass
class LoopbackServer:
    """A server process a test started on 127.0.0.1 (in a session of its own) and the file its output goes to."""

    process: subprocess.Popen
    port: int
    log_path: Path
    stop_wait_s = 15  # what SIGTERM is given before SIGKILL

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=self.stop_wait_s)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)


@dataclass
class AppServer(LoopbackServer):
    """A running `streamlit run app.py`."""

    def rss_mb(self) -> float:
        """Resident memory of the server process, read from /proc."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS line in /proc")


def start_server(log_path: Path, port: int = 0, env: dict[str, str] | None = None,
                 timeout_s: float = 120, script: Path = ROOT / "app.py") -> AppServer:
    """Start the app (or another Streamlit `script`) headless on 127.0.0.1 (a free port unless given) and wait until
    /_stcore/health says ok."""
    port = port or free_port()
    if worker := os.environ.get("PYTEST_XDIST_WORKER"):  # each pytest-xdist worker starts servers of its own
        log_path = log_path.with_stem(f"{log_path.stem}-{worker}")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})})
    server = AppServer(process, port, log_path)
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with status {process.returncode}; see {log_path}")
        try:
            if urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=2).read() == b"ok":
                return server
        except OSError:
            time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"the app did not answer within {timeout_s:.0f} s; see {log_path}")


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def _idle(page) -> bool:
    return page.locator(IDLE).count() == 1 and page.locator(BUSY).count() == 0


def wait_for_idle(page, timeout_s: float = 120, *, settle_s: float = 1.0) -> None:
    """Wait until Streamlit has drawn the sidebar and main area and its script is not running, twice 0.7 s apart.
    Up to `settle_s` first goes to the rerun an action asked for, until it is seen running; a page just loaded needs
    none (`load`): its areas hold elements only once its first run has sent them."""
    for region in ("stSidebarContent", "stMain"):
        page.wait_for_selector(f"[data-testid='{region}'] [data-testid='stElementContainer']",
                               timeout=timeout_s * 1000)
    deadline = time.time() + timeout_s
    settled = time.time() + settle_s
    while time.time() < settled and _idle(page):
        time.sleep(0.1)
    while time.time() < deadline:
        if _idle(page):
            time.sleep(0.7)
            if _idle(page):
                return
        time.sleep(0.25)
    raise TimeoutError(f"the app was still running after {timeout_s:.0f} s")


def fill(page, label: str, text: str) -> None:
    """Type into the input labelled `label` and submit it as a person would (Ctrl+Enter applies a text area)."""
    field = page.get_by_role("textbox", name=label).first
    field.fill(text)
    field.press("Control+Enter" if field.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")


def download(page, button: str, timeout_s: float = 60) -> Path:
    """Click the app's download button named `button` on an idle page and return where the browser saved the file,
    checking that the click ran no script (a download is no reason to redraw the page); when no file comes, fail
    saying what the button showed (Streamlit writes a deferred file's failure under it)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate("""() => { const app = document.querySelector("[data-testid='stApp']"); window.explorerRuns = 0;
        new MutationObserver(() => { window.explorerRuns += app.dataset.testScriptState === 'running'; })
            .observe(app, { attributes: true, attributeFilter: ['data-test-script-state'] }); }""")
    try:
        with page.expect_download(timeout=timeout_s * 1000) as info:
            page.get_by_role("button", name=button).click()
    except PlaywrightTimeout:
        shown = page.locator("[data-testid='stDownloadButtonError']").all_inner_texts()
        raise AssertionError(f"no file came within {timeout_s:.0f} s of a click on {button!r}; the button showed "
                             f"{shown or 'no error'}") from None
    saved = Path(info.value.path())
    time.sleep(1.0)  # a rerun the click asked for would have begun by now
    assert page.evaluate("window.explorerRuns") == 0, f"a click on {button!r} reran the page"
    return saved


def choose(page, label: str, option: str) -> None:
    """Pick `option` in the select box labelled `label`, as a person does: open it, type, click the option."""
    box = page.get_by_role("combobox", name=label).first
    box.click()
    box.fill(option)
    page.get_by_role("option", name=option, exact=True).first.click()


def shoot(page, path: Path) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside its main area, so the window grows to fit it."""
    height = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\")?.scrollHeight ?? 0")
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), 8000))})
    page.wait_for_timeout(500)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)


def plot_data(page, index: int = 0) -> list[dict]:
    """The traces of the index-th Plotly chart on the page as the browser drew them: name, x, y, z and text."""
    return page.evaluate("""(i) => {
        const row = v => (v != null && typeof v === 'object' && v.length !== undefined) ? Array.from(v) : v;
        const list = a => a == null ? null : Array.from(a, row);
        const plot = document.querySelectorAll('.js-plotly-plot')[i];  // _fullData: typed arrays decoded
        return plot._fullData.map(t => ({name: t.name ?? null, x: list(t.x), y: list(t.y), z: list(t.z),
                                         text: list(t.text)}));
    }""", index)


def is_loopback(url: str) -> bool:
    host = urlparse(url).hostname or ""
    return url.startswith(("data:", "blob:", "about:")) or host in {"127.0.0.1", "localhost", "::1"}


def load(page, url: str, timeout_s: float = 120) -> None:
    """Open `url` in `page` and wait until the app is idle."""
    page.goto(url)
    wait_for_idle(page, timeout_s, settle_s=0)


def open_page(page, server, path: str, timeout_s: float = 120) -> None:
    load(page, f"{server.url}/{path}", timeout_s)


def check_and_shoot(page, name: str, *, chart: bool = True) -> Path:
    """No exception box, a drawn Plotly chart (unless `chart` is False), a full-page screenshot, and no WCAG 2 A/AA
    violation that axe-core finds (checked after the screenshot, so that a failure has one to look at)."""
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
    if chart:
        page.wait_for_selector(CHART, state="attached")
        assert page.locator(CHART).count() > 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    shoot(page, path)
    assert_accessible(page)
    return path
