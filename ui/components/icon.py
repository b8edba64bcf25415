"""The tab icon, drawn here: a small similarity heatmap. A material-icon favicon would be fetched from a font host,
and the app makes no request outside the machine."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

SIZE, CELLS = 64, 4
RED, PALE, BLUE = (200, 40, 50), (245, 225, 220), (40, 90, 190)


@lru_cache(maxsize=1)
def app_icon() -> Image.Image:
    image = Image.new("RGB", (SIZE, SIZE), "white")
    draw = ImageDraw.Draw(image)
    step = SIZE // CELLS
    for row in range(CELLS):
        for col in range(CELLS):
            colour = RED if row == col else PALE if row // 2 == col // 2 else BLUE
            draw.rectangle([col * step + 1, row * step + 1, (col + 1) * step - 2, (row + 1) * step - 2], fill=colour)
    return image
