"""Start the app, open a page in headless Chromium, and save a full-page screenshot.

    .venv/bin/python scripts/screenshot.py similarity screenshots/similarity.png [--port 8611] [--wait 20]

The page name is the URL path (`similarity` for views/similarity.py; `""` for home). Optional actions
after load: --click "text of a button" (repeatable), --fill "label=text" (repeatable).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log_path: Path) -> subprocess.Popen:
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"the app did not start; see {log_path}")


def _idle(page) -> bool:
    busy = "[data-testid='stStatusWidget'], [data-testid='stSkeleton'], [data-testid='stSpinner']"
    return page.locator(busy).count() == 0


def wait_for_idle(page, timeout_s: float = 120) -> None:
    """Wait until Streamlit has finished running the script (no 'Running…' status widget)."""
    for region in ("stSidebarContent", "stMain"):
        page.wait_for_selector(f"[data-testid='{region}'] [data-testid='stElementContainer']",
                               timeout=timeout_s * 1000)
    deadline = time.time() + timeout_s
    time.sleep(1.0)
    while time.time() < deadline:
        if _idle(page):
            time.sleep(0.7)
            if _idle(page):
                return
        time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("output", type=Path)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--wait", type=float, default=120)
    parser.add_argument("--click", action="append", default=[])
    parser.add_argument("--fill", action="append", default=[])
    args = parser.parse_args()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    port = args.port or free_port()
    server = start_server(port, args.output.with_suffix(".log"))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{port}/{args.path}")
            wait_for_idle(page, args.wait)
            for item in args.fill:
                label, text = item.split("=", 1)
                page.get_by_label(label).first.fill(text)
                page.keyboard.press("Control+Enter")
                wait_for_idle(page, args.wait)
            for text in args.click:
                page.get_by_text(text, exact=True).first.click()
                wait_for_idle(page, args.wait)
            page.screenshot(path=str(args.output), full_page=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"saved {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
