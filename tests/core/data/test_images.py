"""Image corpora: folders, zips and tables read as a user's files are, hostile ones included: each bad file skipped
and counted in one sentence, nothing outside the folder read, the rows known by their bytes."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from core.data.images import (
    CORRUPT,
    NOT_AN_IMAGE,
    OUTSIDE,
    SVG,
    TOO_LARGE,
    NoImages,
    image_folder,
    image_source,
    image_table,
    image_zip,
)
from tests.image_text import draw_folder


def _png(size=(12, 10), colour=(200, 10, 10)) -> bytes:
    sink = io.BytesIO()
    Image.new("RGB", size, colour).save(sink, "PNG")
    return sink.getvalue()


def _digest(content: bytes) -> str:
    return hashlib.blake2b(content, digest_size=8).hexdigest()


def test_a_folder_gives_each_image_its_bytes_digest_its_place_among_equals_and_its_subfolder_as_label(tmp_path):
    draw_folder(tmp_path, per_class=2)
    (tmp_path / "loose.png").write_bytes((tmp_path / "red" / "0.png").read_bytes())  # a copy, at the root
    corpus = image_folder(tmp_path)
    assert corpus.paths == ["blue/0.png", "blue/1.png", "green/0.png", "green/1.png", "loose.png", "red/0.png",
                            "red/1.png"]
    assert corpus.labels == ["blue", "blue", "green", "green", "", "red", "red"]
    red = _digest((tmp_path / "red" / "0.png").read_bytes())
    assert corpus.row_ids[4] == f"{red}:0" and corpus.row_ids[5] == f"{red}:1"  # the second copy counts 1
    assert corpus.row_ids[0] == f"{_digest((tmp_path / 'blue' / '0.png').read_bytes())}:0"
    assert corpus.said() is None and len(corpus) == 7


def test_rows_keep_their_ids_when_the_folder_grows_by_an_image(tmp_path):
    draw_folder(tmp_path, per_class=2)
    before = dict(zip(image_folder(tmp_path).paths, image_folder(tmp_path).row_ids, strict=True))
    (tmp_path / "blue" / "new.png").write_bytes(_png())
    after = dict(zip(image_folder(tmp_path).paths, image_folder(tmp_path).row_ids, strict=True))
    assert {path: after[path] for path in before} == before and len(after) == len(before) + 1


def test_hostile_files_are_skipped_and_counted_in_one_sentence_and_the_good_ones_kept(tmp_path):
    (tmp_path / "good.png").write_bytes(_png())
    (tmp_path / "notes.txt").write_text("not a picture")
    (tmp_path / "cut.png").write_bytes(_png(size=(64, 64))[:-30])  # a truncated file
    (tmp_path / "drawing.png").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')
    (tmp_path / "tiff.tif").write_bytes(_tiff())
    bomb = Image.new("1", (10_000, 9_000))  # 90 million pixels, a few kB compressed: over PIL's limit
    bomb.save(tmp_path / "bomb.png")
    corpus = image_folder(tmp_path)
    assert corpus.paths == ["good.png"]
    reasons = {skip.path: skip.reason for skip in corpus.skipped}
    assert reasons == {"notes.txt": NOT_AN_IMAGE, "cut.png": CORRUPT, "drawing.png": SVG, "tiff.tif": NOT_AN_IMAGE,
                       "bomb.png": TOO_LARGE}
    said = corpus.said()
    assert said.startswith("5 files were skipped, the 1 images kept: 2 not a PNG") and "bomb.png" in said
    assert "\n" not in said


def _tiff() -> bytes:
    sink = io.BytesIO()
    Image.new("RGB", (4, 4)).save(sink, "TIFF")
    return sink.getvalue()


def test_exif_rotation_is_honoured(tmp_path):
    image = Image.new("RGB", (40, 20), (10, 200, 10))
    exif = image.getexif()
    exif[0x0112] = 6  # orientation: turn 90° clockwise to view
    image.save(tmp_path / "turned.jpg", exif=exif)
    assert image_folder(tmp_path).image(0).size == (20, 40)


def test_a_link_out_of_the_folder_is_never_read(tmp_path):
    outside = tmp_path / "secret.png"
    outside.write_bytes(_png())
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "kept.png").write_bytes(_png(colour=(0, 0, 0)))
    os.symlink(outside, folder / "link.png")
    corpus = image_folder(folder)
    assert corpus.paths == ["kept.png"] and [(s.path, s.reason) for s in corpus.skipped] == [("link.png", OUTSIDE)]


def test_a_zip_reads_its_subfolders_as_labels_and_refuses_paths_that_leave_it(tmp_path):
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w") as archive:
        archive.writestr("cats/a.png", _png())
        archive.writestr("dogs/b.png", _png(colour=(1, 2, 3)))
        archive.writestr("../evil.png", _png())
        archive.writestr("/etc/abs.png", _png())
        archive.writestr("__MACOSX/cats/._a.png", b"junk")
        archive.writestr("cats/.hidden.png", b"junk")
    corpus = image_zip(sink.getvalue())
    assert corpus.paths == ["cats/a.png", "dogs/b.png"] and corpus.labels == ["cats", "dogs"]
    assert sorted((s.path, s.reason) for s in corpus.skipped) == [("../evil.png", OUTSIDE), ("/etc/abs.png", OUTSIDE)]
    assert corpus.image(1).getpixel((0, 0)) == (1, 2, 3)
    with pytest.raises(NoImages, match="is not a zip file"):
        image_zip(b"PK not really")


def test_a_table_names_images_beside_it_with_labels_and_never_outside(tmp_path):
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "a.png").write_bytes(_png())
    (tmp_path.parent / "outside.png").write_bytes(_png())
    table = tmp_path / "rows.csv"
    table.write_text("image,label\npics/a.png,cat\n../outside.png,dog\npics/missing.png,cat\n")
    corpus = image_table(table)
    assert corpus.paths == ["pics/a.png"] and corpus.labels == ["cat"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [("../outside.png", OUTSIDE),
                                                              ("pics/missing.png", "not found")]
    (tmp_path / "texts.csv").write_text("text\nhello\n")
    with pytest.raises(NoImages, match="has no 'image' column"):
        image_table(tmp_path / "texts.csv")


def test_a_source_with_no_image_says_what_it_held(tmp_path):
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(NoImages, match=r"holds no image that can be read: 1 file was skipped"):
        image_source(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(NoImages, match="holds no image that can be read at all"):
        image_source(empty)
    with pytest.raises(NoImages, match="does not exist"):
        image_source(tmp_path / "nowhere.zip")
    with pytest.raises(NoImages, match="is neither a folder of images"):
        image_source(tmp_path / "a.txt")


def test_every_format_a_user_has_is_read(tmp_path):
    for fmt, suffix in (("PNG", "png"), ("JPEG", "jpg"), ("WEBP", "webp"), ("GIF", "gif")):
        Image.new("RGB", (8, 8), (9, 9, 9)).save(tmp_path / f"x.{suffix}", fmt)
    Image.new("RGBA", (8, 8), (9, 9, 9, 100)).save(tmp_path / "alpha.png")
    corpus = image_folder(Path(tmp_path))
    assert len(corpus) == 5 and all(image.mode == "RGB" for image in corpus.images())


def test_a_scan_decodes_each_file_once_and_gives_the_same_rows(tmp_path, monkeypatch):
    from core.data import images

    draw_folder(tmp_path, per_class=2)
    (tmp_path / "notes.txt").write_text("x")
    calls = []
    real = images.decoded
    monkeypatch.setattr(images, "decoded", lambda content: calls.append(1) or real(content))
    scan = images.image_scan(tmp_path)
    pictures = list(scan)
    assert len(pictures) == 6 and len(calls) == 7  # six pictures and the text file, each tried once
    corpus = scan.corpus()
    assert len(calls) == 7
    assert (corpus.paths, corpus.row_ids, corpus.labels) == (image_folder(tmp_path).paths,
                                                             image_folder(tmp_path).row_ids,
                                                             image_folder(tmp_path).labels)
    with pytest.raises(RuntimeError, match="read once"):
        list(scan)
