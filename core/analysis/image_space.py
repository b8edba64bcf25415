"""Images and texts in one space, as the Pictures page reads them: every vector against every other (images first,
then texts) by the cosine, and the modality gap."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.analysis.modality_gap import ModalityGap, modality_gap
from core.analysis.search import unit_rows


@dataclass(frozen=True)
class ImageTextSpace:
    images: np.ndarray  # one vector an image, as the model gives it
    texts: np.ndarray  # one vector a text
    matrix: np.ndarray  # the cosine of every image and text with every other, images first
    gap: ModalityGap

    @property
    def blocks(self) -> dict[str, float]:
        """The mean cosine within images, within texts and between the two (each pair once, none with itself)."""
        n = len(self.images)
        within = [self.matrix[:n, :n], self.matrix[n:, n:]]
        means = [float(block[np.triu_indices(len(block), 1)].mean()) if len(block) > 1 else float("nan")
                 for block in within]
        return {"image–image": means[0], "text–text": means[1], "image–text": float(self.matrix[:n, n:].mean())}


def image_text_space(images: np.ndarray, texts: np.ndarray) -> ImageTextSpace:
    both = unit_rows(np.vstack([images, texts]).astype(np.float32))
    return ImageTextSpace(images, texts, both @ both.T, modality_gap(images, texts))
