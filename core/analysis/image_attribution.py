"""Why an image matches a text: integrated gradients (Captum's LayerIntegratedGradients) of the cosine between the
image's vector and the text's, over the image's patch embeddings, the text held fixed. The baseline is the image of
the processor's mean colour (pixel values 0 after normalising, so every patch embeds to 0 where the patch embedding
has no bias, as CLIP's; SigLIP's has one, which every patch of the baseline embeds to); the class token (CLIP's) and
the positions stay as they are. The attributions
of a patch's dimensions are summed into one number a patch, drawn as a heat map over the image as the model saw it.
Completeness says how far to trust it: the patches' attributions sum to the score's change from the baseline, and
the gap shrinks as the steps grow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from core.models.image_text import ImageTextModel

PATCHES = "patch_embedding"  # what CLIP's and SigLIP's vision towers call the layer that embeds each patch


@dataclass(frozen=True)
class PatchAttribution:
    text: str
    score: float  # the cosine of the image's vector and the text's
    baseline_score: float  # the mean-colour image's cosine with the text
    patches: np.ndarray  # (rows, columns) of patches: each one's attribution
    seen: np.ndarray  # the image as the model saw it (resized and cropped), (height, width, 3) uint8
    steps: int

    @property
    def change(self) -> float:
        return self.score - self.baseline_score

    @property
    def gap(self) -> float:
        """The attributions' sum minus the score's change: 0 for perfect completeness."""
        return float(self.patches.sum()) - self.change


def patch_layer(model: ImageTextModel) -> torch.nn.Module:
    """The module whose output is the image's patch embeddings; ValueError in one sentence where there is none."""
    found = [module for name, module in model.encoder.named_modules() if name.endswith(PATCHES)]
    if len(found) != 1:
        raise ValueError(f"{model.model_id} has no single patch embedding layer (a module named '{PATCHES}', as "
                         "CLIP's and SigLIP's vision towers have), so its image side cannot be explained by patch.")
    return found[0]


def _grid(attributions: torch.Tensor) -> np.ndarray:
    """A layer output's attributions as (rows, columns) of patches: a convolution's (1, dims, rows, columns), or a
    square of patch tokens (1, patches, dims)."""
    values = attributions.detach().double()[0]
    if values.dim() == 3:
        return values.sum(0).numpy()
    summed = values.sum(-1).numpy()
    side = int(round(len(summed) ** 0.5))
    return summed.reshape(side, side)


def _seen(model: ImageTextModel, pixels: torch.Tensor) -> np.ndarray:
    processor = model.encoder[0].processor
    images = getattr(processor, "image_processor", processor)
    mean = torch.tensor(images.image_mean).view(3, 1, 1)
    std = torch.tensor(images.image_std).view(3, 1, 1)
    return (((pixels[0] * std + mean).clamp(0, 1) * 255).round().byte().permute(1, 2, 0)).numpy()


def attribute_image(model: ImageTextModel, image: Any, text: str, *, steps: int = 50) -> PatchAttribution:
    """The patches' integrated gradients of the image's cosine with `text` (a PIL image; `steps` Gauss-Legendre
    points)."""
    from captum.attr import LayerIntegratedGradients

    encoder = model.encoder
    layer = patch_layer(model)
    with torch.no_grad():
        target = torch.as_tensor(model.encode_texts([text]))
    features = encoder.preprocess([image])
    pixels = features["pixel_values"].to(encoder.device)

    def score(values: torch.Tensor) -> torch.Tensor:
        vectors = encoder({**features, "pixel_values": values})["sentence_embedding"]
        return torch.nn.functional.cosine_similarity(vectors, target.to(vectors.device).expand_as(vectors))

    baseline = torch.zeros_like(pixels)
    attributions = LayerIntegratedGradients(score, layer).attribute(pixels, baselines=baseline, n_steps=steps,
                                                                    internal_batch_size=steps)
    with torch.no_grad():
        scored, base = float(score(pixels)[0]), float(score(baseline)[0])
    return PatchAttribution(text, scored, base, _grid(attributions), _seen(model, pixels.cpu()), steps)
