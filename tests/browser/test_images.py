"""The page "Pictures and words" in Chromium with the tiny CLIP (random weights): the example pictures and their
captions drawn in one heatmap with a thumbnail above each picture's column, the gap, the map (a picture hovers its
thumbnail, a caption its text alone), zero-shot and a match's patches; a picture uploaded by the file picker replaces
the examples; WCAG A/AA (axe) and no fork in the server."""

from __future__ import annotations

import pytest
from PIL import Image

from core.data.image_examples import EXAMPLES
from tests.browser.canvas import hover, isolated_row, tooltip, wait_drawn
from tests.browser.harness import check_and_shoot, open_page, plot_data, wait_for_idle

pytestmark = pytest.mark.browser


def test_the_examples_in_one_space_and_an_upload(page, server, clip_folder, tmp_path):
    open_page(page, server, f"images?img_model={clip_folder}", timeout_s=300)
    page.get_by_text("Why does this picture match this text?").wait_for(timeout=300_000)
    wait_for_idle(page, 300)
    heatmap = plot_data(page, 0)[0]
    assert len(heatmap["z"]) == 2 * len(EXAMPLES)
    assert page.locator(".stPlotlyChart image").count() >= len(EXAMPLES) + 1  # the thumbnails and the patches' picture
    wait_drawn(page)  # the map: each picture hovers its thumbnail above its file's name, a caption its text alone
    on_picture = isolated_row(page, among=range(len(EXAMPLES)))
    on_caption = isolated_row(page, among=range(len(EXAMPLES), 2 * len(EXAMPLES)))
    hover(page, on_picture)
    tooltip(page).filter(has_text=EXAMPLES[on_picture].file).wait_for()
    assert tooltip(page).locator("img").get_attribute("src").startswith("data:image/jpeg;base64,")
    hover(page, on_caption)
    tooltip(page).filter(has_text=EXAMPLES[on_caption - len(EXAMPLES)].caption).wait_for()
    assert tooltip(page).locator("img").count() == 0
    check_and_shoot(page, "images")
    page.get_by_text("Upload pictures or a zip").click()
    picture, broken = tmp_path / "red.png", tmp_path / "broken.png"
    Image.new("RGB", (40, 40), (220, 20, 20)).save(picture)
    broken.write_bytes(b"not a picture at all")
    page.locator(".st-key-img_upload input[type='file']").set_input_files([str(picture), str(broken)])
    wait_for_idle(page, 300)
    page.get_by_text("1 file was skipped, the 1 images kept").wait_for()
    assert page.locator(".stPlotlyChart").count() >= 1
