"""Start the app, open a page in headless Chromium, and save a full-page screenshot.

    .venv/bin/python scripts/screenshot.py similarity screenshots/similarity.png [--port 8611] [--wait 20]

The page name is the URL path (`similarity` for views/similarity.py; `""` for home). Optional actions
after load: --click "text of a button" (repeatable), --fill "label=text" (repeatable).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser.harness import VIEWPORT, fill, launch_chromium, shoot, start_server, wait_for_idle  # noqa: E402


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
    server = start_server(args.output.with_suffix(".log"), args.port)
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"{server.url}/{args.path}")
            wait_for_idle(page, args.wait)
            for item in args.fill:
                label, text = item.split("=", 1)
                fill(page, label, text)
                wait_for_idle(page, args.wait)
            for text in args.click:
                page.get_by_text(text, exact=True).first.click()
                wait_for_idle(page, args.wait)
            shoot(page, args.output)
            browser.close()
    finally:
        server.stop()
    print(f"saved {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
