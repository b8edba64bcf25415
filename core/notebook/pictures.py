"""`Pictures`: a model of images and texts (CLIP, SigLIP) in a notebook, as the page "Pictures and words" reads it:
the same core functions and the same figures. Pictures are PIL images or paths to image files (read and checked as
the app reads them: core.data.images); texts are strings; one call never mixes the two, as sentence-transformers
encodes each modality by its own tower."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from PIL import Image

from core.analysis.image_attribution import attribute_image
from core.analysis.image_space import image_text_space
from core.analysis.map.projection import ProjectionParams
from core.data.images import ImageCorpus, corpus_of, decoded
from core.data.thumbnails import data_uri, thumbnail
from core.evaluation.captioned import captioned_retrieval, captions_pair
from core.evaluation.zero_shot import TEMPLATE, ZeroShot, zero_shot
from core.maps.checks import map_method
from core.maps.pictures import MODALITY, picture_map
from core.models.image_text import load_image_text
from core.plots.images import confusion_figure, patch_figure, space_heatmap

if TYPE_CHECKING:
    from core.notebook.map_widget import MapWidget

Picture = Image.Image | str | Path


def _corpus(pictures: Sequence[Picture]) -> ImageCorpus:
    """Paths read from disk, PIL images as PNG bytes; each named by its path or its place."""
    import io

    contents: dict[str, bytes] = {}
    for i, picture in enumerate(pictures):
        if isinstance(picture, Image.Image):
            sink = io.BytesIO()
            picture.save(sink, "PNG")
            contents[f"picture {i + 1}"] = sink.getvalue()
        else:
            contents[str(picture)] = Path(picture).read_bytes()
    corpus = corpus_of([(name, "") for name in contents], contents.__getitem__, "The pictures given")
    if corpus.skipped:
        raise ValueError(corpus.said())
    return corpus


class Pictures:
    """A model of images and texts, any id or folder the app loads (a text model is refused in one sentence)."""

    def __init__(self, model: str, *, device: str = "auto", revision: str | None = None) -> None:
        self.model = load_image_text(model, device, revision)

    def __repr__(self) -> str:
        return f"Pictures({self.model.model_id!r})"

    def embed(self, items: Sequence[Picture] | Sequence[str], *, batch_size: int = 32) -> np.ndarray:
        """Each picture's vector (PIL images, or paths), or each text's: equal to sentence-transformers' `encode`.
        A list of strings is texts; give paths as pathlib.Path to embed the files."""
        listed = list(items)
        texts = [item for item in listed if isinstance(item, str)]
        if listed and len(texts) == len(listed):
            return self.model.encode_texts(texts, batch_size=batch_size)
        if texts:
            raise ValueError("Give pictures (PIL images or pathlib.Path) or texts (strings) in one call, not both.")
        return self.model.encode_images(_corpus(listed).images(), batch_size=batch_size)

    def space(self, pictures: Sequence[Picture], texts: Sequence[str]) -> go.Figure:
        """The page's heatmap of every picture and text, with thumbnails; the gap in its title."""
        corpus = _corpus(list(pictures))
        found = image_text_space(self.model.encode_images(corpus.images()), self.model.encode_texts(list(texts)))
        figure = space_heatmap(found, corpus.paths, list(texts),
                               [data_uri(thumbnail(corpus, row)) for row in range(len(corpus))])
        return figure.update_layout(title=f"modality gap {found.gap.distance:.3f} "
                                          f"({found.gap.variance_share:.0%} of the variance along it)")

    def retrieval(self, pictures: Sequence[Picture], captions: Sequence[str]) -> pd.DataFrame:
        """Caption i of picture i: retrieval both ways, with the gap as it is and closed."""
        images, texts = self.embed(list(pictures)), self.model.encode_texts(list(captions))
        if not captions_pair(images, texts):
            raise ValueError(f"Give one caption a picture ({len(images)} pictures, {len(texts)} captions), at least "
                             "two of each.")
        return captioned_retrieval(images, texts)

    def map(self, pictures: Sequence[Picture], texts: Sequence[str] = (), *, query: str | None = None,
            method: str = "PCA", colour_by: str = MODALITY) -> MapWidget:
        """The page's map of the pictures and texts as a notebook widget (MapWidget, the notebook extra): a picture
        hovers its thumbnail; coloured by `colour_by` ("modality", or "label": the pictures' subfolders); `query`
        lights its nearest pictures (its star and lines to them)."""
        from core.notebook.map_widget import MapWidget  # anywidget, the notebook extra, only where it is used

        corpus = _corpus(list(pictures))
        listed = list(texts)
        images = self.model.encode_images(corpus.images())
        vectors = self.model.encode_texts(listed) if listed else np.zeros((0, images.shape[1]), images.dtype)
        asked = None if not query else (query, self.model.encode_texts([query])[0])
        found = picture_map(corpus, images, listed, vectors, ProjectionParams(map_method(method)),
                            colour_by=colour_by, query=asked, model_id=self.model.model_id)
        widget = MapWidget(found.points, thumbnail=lambda row: found.thumbnail(corpus, row))
        if found.lit is not None:
            widget.highlight(found.lit)
        return widget

    def zero_shot(self, pictures: Sequence[Picture], labels: Sequence[object], *,
                  template: str = TEMPLATE) -> ZeroShot:
        """Each picture classified by the nearest prompt of the labels' classes (a blank label left out);
        `.summary()` as `evaluate zero-shot` prints it, `Pictures.confusion_figure(found)` draws it."""
        corpus = _corpus(list(pictures))
        return zero_shot(self.model.encode_images(corpus.images()), list(labels),  # type: ignore[arg-type]
                         [row.split(":")[0] for row in corpus.row_ids], self.model.encode_texts, template)

    @staticmethod
    def confusion_figure(found: ZeroShot) -> go.Figure:
        return confusion_figure(found.confusion, found.classes)

    def why(self, picture: Picture, text: str, *, steps: int = 50) -> go.Figure:
        """Integrated gradients of the picture's cosine with `text` over its patches, drawn over the picture."""
        image = picture if isinstance(picture, Image.Image) else decoded(Path(picture).read_bytes())
        return patch_figure(attribute_image(self.model, image, text, steps=steps))

