"""The example pictures: fourteen photographs and drawings that scikit-image ships in its wheel (installed without
its dependencies, never imported: only the files are read), each with a label and a caption written here. Every one
is CC0 or in the public domain, as scikit-image's data docstrings say (each line below names its source)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from core.data.images import ImageCorpus, corpus_of
from core.data.stsb import DataUnavailable

PACKAGE = "scikit-image==0.26.0"


@dataclass(frozen=True)
class Example:
    file: str
    label: str
    caption: str


EXAMPLES: tuple[Example, ...] = (
    Example("astronaut.png", "astronaut", "an astronaut in a spacesuit in front of a flag"),  # NASA, public domain
    Example("chelsea.png", "cat", "a cat looking to the side"),  # Stefan van der Walt, CC0
    Example("coffee.png", "coffee", "a cup of coffee on a saucer"),  # Rachel Michetti, CC0
    Example("rocket.jpg", "rocket", "a rocket lifting off from its launch pad"),  # SpaceX, public domain
    Example("horse.png", "horse", "a black silhouette of a horse"),  # Andreas Preuss, CC0
    Example("hubble_deep_field.jpg", "galaxies", "thousands of galaxies in deep space"),  # NASA, public domain
    Example("camera.png", "photographer", "a man with a camera on a tripod"),  # Lav Varshney, CC0
    Example("coins.png", "coins", "old greek coins on a dark background"),  # no known copyright restrictions
    Example("brick.png", "bricks", "a wall of bricks"),  # CC0Textures, CC0
    Example("grass.png", "grass", "a close view of green grass"),  # CC0Textures, CC0
    Example("gravel.png", "gravel", "a close view of grey gravel"),  # CC0Textures, CC0
    Example("retina.jpg", "retina", "the back of a human eye seen through a microscope"),  # CC0 (Häggström)
    Example("clock_motion.png", "clock", "a blurred photo of a clock"),  # Stefan van der Walt, public domain
    Example("cell.png", "cell", "a cell floating in liquid under a microscope"),  # CC0
)


def examples_folder() -> Path:
    """Where scikit-image's wheel put its pictures; DataUnavailable in one sentence where it is not installed."""
    spec = importlib.util.find_spec("skimage")
    folder = Path(next(iter(spec.submodule_search_locations))) / "data" if spec and \
        spec.submodule_search_locations else None
    if folder is None or not all((folder / example.file).is_file() for example in EXAMPLES):
        raise DataUnavailable(f"The example pictures come inside the PyPI package {PACKAGE}, which is not installed "
                              "here; run `make setup` (it installs it without its dependencies), or upload pictures.")
    return folder


def example_corpus() -> ImageCorpus:
    """The example pictures, in EXAMPLES' order, each labelled."""
    folder = examples_folder()
    return corpus_of([(example.file, example.label) for example in EXAMPLES],
                     lambda name: (folder / name).read_bytes(), "The example pictures")


def example_captions() -> list[str]:
    return [example.caption for example in EXAMPLES]
