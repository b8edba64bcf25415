"""A map of 10,000 pictures with their thumbnails, saved as one HTML file (core.maps.pictures, core.maps.html) and
opened in headless Chromium from file://: the time from opening it until every point is drawn, against the goal of
2 s and against the same map's file without thumbnails in the same run; and its size against its budget, 1.1 × (the
file without thumbnails + 4/3 × the thumbnails' JPEG bytes). The pictures are distinct
crops of the example pictures; their vectors are seeded random (a map's time does not depend on the model)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import Row
from bench.map_file import _opened_s

PICTURES = 10_000
SIDE = 128  # pixels of each written picture
GOAL_S = 2.0


def _write_pictures(folder: Path) -> None:
    from PIL import Image

    from core.data.image_examples import EXAMPLES, examples_folder

    rng = np.random.default_rng(0)
    sources = [Image.open(examples_folder() / example.file).convert("RGB") for example in EXAMPLES]
    for i in range(PICTURES):
        source = sources[i % len(sources)]
        w, h = source.size
        side = int(rng.integers(min(w, h) // 2, min(w, h) + 1))
        x, y = int(rng.integers(0, w - side + 1)), int(rng.integers(0, h - side + 1))
        source.crop((x, y, x + side, y + side)).resize((SIDE, SIDE)).save(folder / f"{i:05d}.jpg", quality=85)


def bench_picture_map(rows: list[Row]) -> None:
    from dataclasses import replace

    from playwright.sync_api import sync_playwright

    from core.analysis.map.projection import ProjectionParams
    from core.data.images import image_folder
    from core.maps.html import map_html
    from core.maps.pictures import picture_map
    from tests.browser.harness import launch_chromium

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pictures"
        folder.mkdir()
        _write_pictures(folder)
        corpus = image_folder(folder)
        images = np.random.default_rng(1).normal(size=(len(corpus), 512)).astype(np.float32)
        found = picture_map(corpus, images, [], np.zeros((0, 512), np.float32), ProjectionParams("PCA"),
                            model_id="random vectors")
        start = time.perf_counter()
        rows_with = found.file_rows(corpus)
        thumbnails_s = time.perf_counter() - start
        canvas = found.canvas()
        with_path, without_path = Path(tmp) / "with.html", Path(tmp) / "without.html"
        with_path.write_text(map_html(canvas, rows_with), encoding="utf-8")
        without_path.write_text(map_html(canvas, replace(rows_with, thumbnails=None)), encoding="utf-8")
        thumbnail_bytes = sum(len(jpeg) for jpeg in rows_with.thumbnails or () if jpeg is not None)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            with_s = _opened_s(browser, with_path.as_uri())
            without_s = _opened_s(browser, without_path.as_uri())
            browser.close()
        size, bare = with_path.stat().st_size, without_path.stat().st_size
    budget = 1.1 * (bare + 4 / 3 * thumbnail_bytes)
    figures = {"pictures": len(corpus), "open_s": with_s, "without_thumbnails_open_s": without_s, "bytes": size,
               "budget_bytes": budget, "without_thumbnails_bytes": bare, "thumbnail_bytes": thumbnail_bytes,
               "thumbnails_s": thumbnails_s}
    rows.append(Row(f"Map of {len(corpus):,} pictures with their thumbnails as one HTML file (headless Chromium from "
                    f"file://): opened → every point drawn (thumbnails made in {thumbnails_s:.1f} s)",
                    f"{with_s:.2f} s",
                    f"the same map's file without thumbnails ({bare / 2**20:.1f} MB): {without_s:.2f} s",
                    f"{with_s / without_s:.2f}× (goal: under {GOAL_S:.0f} s: "
                    f"{'met' if with_s < GOAL_S else 'not met'})", raw=figures))
    rows.append(Row(f"Map of {len(corpus):,} pictures as one HTML file: its size with the thumbnails "
                    f"({thumbnail_bytes / len(corpus) / 1000:.1f} kB a picture)", f"{size / 2**20:.1f} MB",
                    f"budget 1.1 × (the file without thumbnails + 4/3 × their JPEG bytes): {budget / 2**20:.1f} MB",
                    f"{size / budget:.2f} of the budget (goal: ≤ 1)", raw=figures))
