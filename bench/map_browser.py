"""The map of a vectors file in headless Chromium: from the upload to the map drawn, the largest message the server
sent, how long the browser took to draw after it arrived, and a highlight search redrawn."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.browser.canvas import draws, map_state, wait_drawn
from tests.browser.harness import AppServer, fill, launch_chromium, wait_for_idle


@dataclass(frozen=True)
class MapTiming:
    upload_to_drawn_s: float
    largest_message_mb: float
    draw_s: float  # from the largest message's arrival to the points drawn
    search_redrawn_s: float


def vector_files(folder: Path, texts: list[str], vectors: np.ndarray, n: int) -> list[Path]:
    """n points as a .npy and a .txt: the given texts and vectors cycled, each copy numbered and moved by a little
    noise, so the file is as large as a real one of n texts."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = np.arange(n) % len(texts)
    noise = np.random.default_rng(0).normal(scale=0.02, size=(n, vectors.shape[1]))
    np.save(folder / "vectors.npy", (vectors[rows] + noise).astype(np.float32))
    (folder / "texts.txt").write_text("".join(f"{texts[i]} ({j // len(texts) + 1})\n" for j, i in enumerate(rows)),
                                      encoding="utf-8")
    return [folder / "vectors.npy", folder / "texts.txt"]


def time_map(playwright, server: AppServer, files: list[Path], n: int) -> MapTiming:
    browser = launch_chromium(playwright)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        frames: list[tuple[float, int]] = []
        page.on("websocket", lambda ws: ws.on("framereceived",
                                              lambda payload: frames.append((time.perf_counter(), len(payload)))))
        page.goto(f"{server.url}/map?map_source=vectors")
        wait_for_idle(page)
        start = time.perf_counter()
        page.locator("input[type=file]").first.set_input_files([str(f) for f in files])
        wait_drawn(page, timeout_s=900)
        assert map_state(page)["n"] == n
        drawn = time.perf_counter()
        arrived, size = max((f for f in frames if f[0] >= start), key=lambda f: f[1])
        wait_for_idle(page, 900)
        searched = time.perf_counter()
        before = draws(page)
        fill(page, "Highlight texts containing", "guitar")
        wait_drawn(page, after=before, timeout_s=900)
        return MapTiming(drawn - start, size / 2**20, drawn - arrived, time.perf_counter() - searched)
    finally:
        browser.close()
