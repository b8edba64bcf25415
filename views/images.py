"""Pictures and words: a model of images and texts (CLIP, SigLIP), the pictures and the texts in one space, the
modality gap, a text's nearest pictures, zero-shot classification and why a picture matches a text."""

from __future__ import annotations

from ui.components.sidebar import page
from ui.pages.images import images_view


def main() -> None:
    settings, _ = page("Pictures and words")
    images_view(settings.device)


main()
