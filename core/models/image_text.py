"""Models that embed images and texts in one space (CLIP, SigLIP: any SentenceTransformer whose `modalities` hold
"image"), asked of the loaded model, never of its name. sentence-transformers encodes both sides: a PIL image goes
to the image tower, a string to the text tower, and a batch never mixes the two. The app's pages read text models so
far, so `load_model` refuses one in one sentence (ImagesAndTexts) carrying it, loaded, for the commands that read
images (the page "Pictures and words", `embed`, `search`, `evaluate zero-shot`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.models.catalog import ModelUnavailable

IMAGE = "image"
COMMANDS = "`python -m core embed --input FOLDER`, `search --input FOLDER` or `evaluate zero-shot`"


@dataclass
class ImageTextModel:
    model_id: str
    encoder: Any  # the sentence_transformers.SentenceTransformer, modalities text and image
    fingerprint: str

    @property
    def dimensions(self) -> int:
        return int(self.encoder.get_embedding_dimension())

    @property
    def modalities(self) -> list[str]:
        return list(self.encoder.modalities)

    def encode_texts(self, texts: Sequence[str], *, batch_size: int = 32) -> np.ndarray:
        return self._encoded(list(texts), batch_size)

    def encode_images(self, images: Iterable[Any], *, batch_size: int = 32) -> np.ndarray:
        """PIL images, `batch_size` at a time (never all decoded at once), in order."""
        batches, batch = [], []
        for image in images:
            batch.append(image)
            if len(batch) == batch_size:
                batches.append(self._encoded(batch, batch_size))
                batch = []
        if batch or not batches:
            batches.append(self._encoded(batch, batch_size))
        return np.concatenate(batches)

    def _encoded(self, inputs: list, batch_size: int) -> np.ndarray:
        if not inputs:
            return np.zeros((0, self.dimensions), np.float32)
        return np.asarray(self.encoder.encode(inputs, batch_size=batch_size, convert_to_numpy=True,
                                              show_progress_bar=False), dtype=np.float32)


class ImagesAndTexts(ModelUnavailable):
    """A model with an image modality, met where texts alone are read; `model` is it, loaded."""

    def __init__(self, model: ImageTextModel):
        super().__init__(f"'{model.model_id}' embeds images and texts in one space (its modalities: "
                         f"{', '.join(model.modalities)}); the pages that read text models do not load it: type it on "
                         f"the page “Pictures and words”, or use it with {COMMANDS}.")
        self.model = model


def has_images(encoder: Any) -> bool:
    return IMAGE in (getattr(encoder, "modalities", None) or ())


def load_image_text(model_id: str, device: str = "auto", revision: str | None = None) -> ImageTextModel:
    """The model as images and texts read it; ModelUnavailable in one sentence for a model of texts alone."""
    from core.models.loading import load_model

    try:
        model = load_model(model_id, device, revision)
    except ImagesAndTexts as found:
        return found.model
    raise ModelUnavailable(f"'{model_id}' is a {model.kind} model of texts alone; images need a model with an "
                           "image modality, such as a CLIP or SigLIP model.")
