"""Corpora of images: a folder (its subfolders read, the first one's name a label), a zip, or a CSV/Parquet table
whose `image` column names files beside it. Each image is known by the digest of its file's bytes with its place
among equal images (core.data.rows), and checked once as it is read: what is not a PNG, JPEG, WebP or GIF, what
cannot be decoded, SVG, an image over PIL's pixel limit and a path that leaves its folder are skipped and counted,
never read. EXIF rotation is honoured."""

from __future__ import annotations

import io
import os
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from PIL import Image, ImageOps

from core.data.rows import digest_of, placed

FORMATS = ("PNG", "JPEG", "WEBP", "GIF")  # as PIL names what it found in a file's bytes
IMAGE_COLUMN = "image"
LABEL_COLUMN = "label"
TABLE_SUFFIXES = (".csv", ".parquet")
MEMBER_BYTES = 64 * 2**20  # the largest file a zip may hold here: a bigger one is skipped before it is inflated

# why a file was skipped, as the count of skipped files says it
NOT_AN_IMAGE = "not a PNG, JPEG, WebP or GIF image"
CORRUPT = "could not be decoded"
SVG = "SVG (drawing instructions, not pixels: convert it to PNG)"
TOO_LARGE = f"over PIL's limit of {Image.MAX_IMAGE_PIXELS:,} pixels"
OUTSIDE = "a path that leaves the folder"
MISSING = "not found"
TOO_BIG = f"over {MEMBER_BYTES // 2**20} MB inflated"


class NoImages(ValueError):
    """A source that holds no image that can be read; the message says what was there instead."""


class Refused(Exception):
    """An image file that is not read; the message is one of the reasons above."""


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


def decoded(content: bytes) -> Image.Image:
    """The image in `content` as RGB pixels, turned as its EXIF orientation says; Refused with the reason where it is
    not one of FORMATS, is SVG, cannot be decoded or is over PIL's pixel limit (a decompression bomb)."""
    if content.lstrip()[:5].lower() in (b"<svg ", b"<svg>", b"<?xml"):
        raise Refused(SVG)
    try:
        with warnings.catch_warnings():  # between the limit and twice it PIL only warns: refused alike here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:
                if image.format not in FORMATS:
                    raise Refused(NOT_AN_IMAGE)
                image.load()
                return ImageOps.exif_transpose(image).convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
        raise Refused(TOO_LARGE) from err
    except Image.UnidentifiedImageError as err:
        raise Refused(NOT_AN_IMAGE) from err
    except (OSError, SyntaxError, ValueError, EOFError) as err:  # a truncated or damaged file
        raise Refused(CORRUPT) from err


@dataclass(frozen=True)
class ImageCorpus:
    """The images a source holds, in the order of their paths, and the files it skipped."""

    paths: list[str]  # each image's path in its source, with "/" between parts
    row_ids: list[str]
    labels: list[str]  # the subfolder's name (or the table's `label`); "" where none
    skipped: list[Skipped]
    read: Callable[[str], bytes]  # a path's bytes, as the source holds them

    def __len__(self) -> int:
        return len(self.paths)

    def image(self, row: int) -> Image.Image:
        return decoded(self.read(self.paths[row]))

    def images(self, rows: Sequence[int] | None = None) -> Iterator[Image.Image]:
        """The images of `rows` (all of them by default), decoded one at a time."""
        for row in range(len(self)) if rows is None else rows:
            yield self.image(row)

    def said(self) -> str | None:
        """How many files were skipped and why, in one sentence naming a few; None where none was."""
        if not self.skipped:
            return None
        reasons = Counter(skip.reason for skip in self.skipped)
        parts = []
        for reason, count in reasons.most_common():
            named = [skip.path for skip in self.skipped if skip.reason == reason]
            shown = ", ".join(named[:3]) + (f" and {len(named) - 3:,} more" if len(named) > 3 else "")
            parts.append(f"{count:,} {reason} ({shown})")
        files = "file was" if len(self.skipped) == 1 else "files were"
        return f"{len(self.skipped):,} {files} skipped, the {len(self):,} images kept: {'; '.join(parts)}."


class Scan:
    """A source's images read once, in the order of their paths: iterating it reads, checks and decodes each file
    once (an encoder takes the images as they come, and none is kept), skipping what cannot be read; `corpus()` then
    gives the rows, finishing the pass first where it was not read to the end."""

    def __init__(self, named: Sequence[tuple[str, str]], read: Callable[[str], bytes], source: str,
                 skipped: Sequence[Skipped] = ()) -> None:
        self._named, self._read, self._source = list(named), read, source
        self._skipped = list(skipped)
        self._kept: list[tuple[str, str, str]] = []  # path, label, the digest of its bytes
        self._read_through = False

    def __iter__(self) -> Iterator[Image.Image]:
        if self._kept or self._read_through:
            raise RuntimeError("A scan of images is read once.")
        for path, label in self._named:
            try:
                content = self._read(path)
                image = decoded(content)
            except Refused as err:
                self._skipped.append(Skipped(path, str(err)))
                continue
            except FileNotFoundError:
                self._skipped.append(Skipped(path, MISSING))
                continue
            self._kept.append((path, label, digest_of(content)))
            yield image
        self._read_through = True

    def corpus(self) -> ImageCorpus:
        """The images read, each known by its bytes' digest and its place among equal images; NoImages naming the
        source where none could be read."""
        if not self._read_through:
            for _ in self:
                pass
        if not self._kept:
            what = f": {ImageCorpus([], [], [], self._skipped, self._read).said()}" if self._skipped else " at all"
            raise NoImages(f"{self._source} holds no image that can be read{what}")
        return ImageCorpus([path for path, _, _ in self._kept], placed(digest for _, _, digest in self._kept),
                           [label for _, label, _ in self._kept], self._skipped, self._read)


def corpus_of(named: Sequence[tuple[str, str]], read: Callable[[str], bytes], source: str) -> ImageCorpus:
    """Each (path, label) read by `read` and checked: kept where it decodes, else skipped with its reason; NoImages
    naming `source` where none is kept."""
    return Scan(named, read, source).corpus()


def _within(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except ValueError:
        return False
    return True


def _label(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) > 1 else ""


def _folder(folder: Path) -> Scan:
    """Every file under `folder` (hidden ones aside), sorted by path; a link that leads out of it is skipped."""
    root = folder.resolve()
    named, skipped = [], []
    for here, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(here) / name
            relative = path.relative_to(root).as_posix()
            if not _within(root, path):
                skipped.append(Skipped(relative, OUTSIDE))
            else:
                named.append((relative, _label(relative.split("/"))))
    return Scan(sorted(named), lambda relative: (root / relative).read_bytes(), str(folder), skipped)


def image_folder(folder: Path) -> ImageCorpus:
    return _folder(folder).corpus()


def _safe_member(name: str) -> bool:
    path = PurePosixPath(name.replace("\\", "/"))
    return bool(path.parts) and not path.is_absolute() and ".." not in path.parts and ":" not in path.parts[0]


def _zip(content: bytes, name: str) -> Scan:
    """Every file in a zip (folders and hidden files aside), by path; a member whose path leaves the zip's folder
    (`../`, an absolute path) or that inflates past MEMBER_BYTES is skipped, never read."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile as err:
        raise NoImages(f"{name} is not a zip file ({err}).") from err
    named, skipped = [], []
    for info in sorted(archive.infolist(), key=lambda info: info.filename):
        parts = [part for part in info.filename.replace("\\", "/").split("/") if part]
        if info.is_dir() or not parts or any(part.startswith(".") and part not in (".", "..") for part in parts) \
                or parts[0] == "__MACOSX":
            continue
        if not _safe_member(info.filename):
            skipped.append(Skipped(info.filename, OUTSIDE))
        elif info.file_size > MEMBER_BYTES:
            skipped.append(Skipped(info.filename, TOO_BIG))
        else:
            named.append((info.filename, _label(parts)))
    return Scan(named, archive.read, name, skipped)


def image_zip(content: bytes, name: str = "The zip") -> ImageCorpus:
    return _zip(content, name).corpus()


def _table(table: Path) -> Scan:
    """A CSV or Parquet file's `image` column, paths relative to the file's folder (its `label` column, if any, the
    labels); a path that leaves that folder is skipped, never read."""
    import pandas as pd

    frame = pd.read_parquet(table) if table.suffix.lower() == ".parquet" else pd.read_csv(table, dtype=str,
                                                                                           keep_default_na=False)
    if IMAGE_COLUMN not in frame.columns:
        raise NoImages(f"{table} has no '{IMAGE_COLUMN}' column of image paths (its columns: "
                       f"{', '.join(map(str, frame.columns))}).")
    root = table.parent.resolve()
    labels = frame[LABEL_COLUMN].fillna("").astype(str) if LABEL_COLUMN in frame.columns else [""] * len(frame)
    named, skipped = [], []
    for path, label in zip(frame[IMAGE_COLUMN].fillna("").astype(str), labels, strict=True):
        if not path or Path(path).is_absolute() or not _within(root, root / path):
            skipped.append(Skipped(path, OUTSIDE))
        else:
            named.append((path, label))
    return Scan(named, lambda relative: (root / relative).read_bytes(), str(table), skipped)


def image_table(table: Path) -> ImageCorpus:
    return _table(table).corpus()


def is_image_source(path: Path) -> bool:
    """Whether `path` names images rather than texts: a folder, a zip, or a table (which must then hold an `image`
    column)."""
    return path.is_dir() or path.suffix.lower() in (".zip", *TABLE_SUFFIXES)


def image_scan(path: Path) -> Scan:
    """The images of a folder, a zip or a table, to be read once; NoImages in one sentence for anything else."""
    if path.is_dir():
        return _folder(path)
    if not path.exists():
        raise NoImages(f"{path} does not exist; give a folder of images, a .zip of them, or a CSV or Parquet file "
                       f"with an '{IMAGE_COLUMN}' column of paths.")
    if path.suffix.lower() == ".zip":
        return _zip(path.read_bytes(), str(path))
    if path.suffix.lower() in TABLE_SUFFIXES:
        return _table(path)
    raise NoImages(f"{path} is neither a folder of images, a .zip of them, nor a CSV or Parquet file with an "
                   f"'{IMAGE_COLUMN}' column of paths.")


def image_source(path: Path) -> ImageCorpus:
    return image_scan(path).corpus()


def uploaded_images(files: Sequence[tuple[str, bytes]]) -> ImageCorpus:
    """Files uploaded in the app: one zip (read as `image_zip` reads it), or images, each by its file name."""
    zips = [name for name, _ in files if name.lower().endswith(".zip")]
    if zips and len(files) > 1:
        raise NoImages(f"Upload one zip ({', '.join(zips)}) or images, not both at once.")
    if zips:
        return _zip(files[0][1], files[0][0]).corpus()
    contents = dict(files)
    return corpus_of([(name, "") for name in contents], contents.__getitem__, "The uploaded files")
