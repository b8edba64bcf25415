"""The page "Pictures and words" in Chromium with the tiny CLIP (random weights): the example pictures and their
captions drawn in one heatmap with a thumbnail above each picture's column, the gap, zero-shot and a match's patches;
a picture uploaded by the file picker replaces the examples; WCAG A/AA (axe) and no fork in the server."""

from __future__ import annotations

import pytest
from PIL import Image

from core.data.image_examples import EXAMPLES
from tests.browser.harness import check_and_shoot, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser


def test_the_examples_in_one_space_and_an_upload(page, server, clip_folder, tmp_path):
    open_page(page, server, f"images?img_model={clip_folder}", timeout_s=300)
    page.get_by_text("Why does this picture match this text?").wait_for(timeout=300_000)
    wait_for_idle(page, 300)
    heatmap = plot_data(page, 0)[0]
    assert len(heatmap["z"]) == 2 * len(EXAMPLES)
    assert page.locator(".stPlotlyChart image").count() >= len(EXAMPLES) + 1  # the thumbnails and the patches' picture
    check_and_shoot(page, "images")
    page.get_by_text("Upload pictures or a zip").click()
    picture, broken = tmp_path / "red.png", tmp_path / "broken.png"
    Image.new("RGB", (40, 40), (220, 20, 20)).save(picture)
    broken.write_bytes(b"not a picture at all")
    page.locator(".st-key-img_upload input[type='file']").set_input_files([str(picture), str(broken)])
    wait_for_idle(page, 300)
    page.get_by_text("1 file was skipped, the 1 images kept").wait_for()
    assert page.locator(".stPlotlyChart").count() >= 1
