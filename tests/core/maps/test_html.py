"""A map saved as one HTML file (core.maps.html), read back as a browser would: its elements by an HTML parser, its
JSON island, its base64 columns and its gzip'd texts, each against what the map was made from."""

from __future__ import annotations

import base64
import gzip
import json
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from core.maps import html as map_file
from core.maps.build import map_points
from core.maps.html import BUNDLE, DATA_ID, MapFileError, points_html
from tests.row_ids import digest_id


class Elements(HTMLParser):
    """Every element's tag and attributes, and each script's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self.title = ""
        self._in: str | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = tag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts.append(data)
        elif self._in == "title":
            self.title += data


def island(text: str) -> dict:
    found = Elements(text)
    (data,) = [script for (tag, attrs), script in zip(
        [t for t in found.tags if t[0] == "script"], found.scripts) if attrs.get("id") == DATA_ID]
    return json.loads(data)


def unzipped(value: str):
    return json.loads(gzip.decompress(base64.b64decode(value)))


def column(payload: dict, key: str) -> bytes:
    return base64.b64decode(payload["columns"][payload["view"][key]])


def saved(texts, labels, coords=None, *, title="A map", tags=None, ids=None) -> str:
    coords = np.random.default_rng(0).normal(size=(len(texts), 2)) if coords is None else coords
    frame = pd.DataFrame({"text": texts, "kind": labels, **({"row_id": ids} if ids is not None else {})})
    return points_html(map_points(frame, coords, coords, title=title, label="kind"), tags)


TEXTS = [f"text number {i} about {('cats', 'dogs', 'rain')[i % 3]}" for i in range(30)] + ["text number 0 about cats"]
LABELS = [("cats", "dogs", "rain")[i % 3] for i in range(31)]


def test_a_saved_map_holds_its_positions_colours_texts_values_and_tags_as_the_browser_reads_them():
    coords = np.random.default_rng(1).normal(size=(len(TEXTS), 2)) * [3.0, 1.0] + [10.0, -4.0]
    ids = [digest_id(text) for text in TEXTS[:-1]] + [digest_id(TEXTS[-1], 1)]  # the repeated text's second row
    payload = island(saved(TEXTS, LABELS, coords, tags={"picked": frozenset([ids[3], ids[30], "not-a-row:0"])}))
    n = len(TEXTS)
    centre = (coords.min(axis=0) + coords.max(axis=0)) / 2
    half = (coords.max(axis=0) - coords.min(axis=0)).max() / 2
    positions = np.frombuffer(column(payload, "positions"), np.float32)
    np.testing.assert_allclose(positions, np.concatenate([(coords - centre)[:, 0], (coords - centre)[:, 1]]) / half,
                               atol=1e-6)
    place = payload["place"]  # how the file turns them back into the map's x and y
    np.testing.assert_allclose(positions[:n] / place["scale"] + place["centre"][0], coords[:, 0], atol=1e-5)
    codes = np.frombuffer(column(payload, "codes"), np.uint8)
    named = {item["code"]: item["name"] for item in payload["view"]["legend"]["items"]}
    assert [named[code] for code in codes] == LABELS
    assert unzipped(payload["texts"]) == TEXTS
    assert unzipped(payload["values"]) == LABELS and payload["valueTitle"] == "kind"
    assert payload["rowIds"] is None  # the texts' digests: the browser computes them (frontend/src/rows.js)
    assert payload["tags"] == {"picked": [3, 30]}  # as row numbers; a row the map lacks is left out
    assert payload["view"]["n"] == n and payload["view"]["height"] == 600


def test_row_ids_that_are_not_the_texts_digests_are_kept_in_the_file():
    ids = [f"row {i}" for i in range(len(TEXTS))]
    assert unzipped(island(saved(TEXTS, LABELS, ids=ids))["rowIds"]) == ids


def test_a_text_title_or_label_holding_markup_stays_data():
    hostile = ["</script><script>alert(1)</script>", '<img src=x onerror="alert(2)">', "<!-- <script>", "a & b"]
    text = saved(hostile * 2, ["<b>x</b>", "</SCRIPT>"] * 4, title="<i>A</i> </title> map")
    found = Elements(text)
    assert [tag for tag, _ in found.tags] == ["html", "head", "meta", "meta", "meta", "title", "body", "script",
                                              "script"]
    assert found.title == "<i>A</i> </title> map"
    payload = island(text)
    assert unzipped(payload["texts"]) == hostile * 2
    assert payload["view"]["label"] == "<i>A</i> </title> map"
    assert [item["name"] for item in payload["view"]["legend"]["items"]] == ["</SCRIPT>", "<b>x</b>"]


def test_nothing_in_the_file_is_fetched_and_the_bundle_is_inlined_whole():
    text = saved(TEXTS, LABELS)
    found = Elements(text)
    assert all("src" not in attrs and "href" not in attrs for _, attrs in found.tags)
    policy = next(attrs["content"] for tag, attrs in found.tags if attrs.get("http-equiv") ==
                  "Content-Security-Policy")
    assert policy.startswith("default-src 'none';") and "connect-src" not in policy  # so no fetch
    (module,) = [script for (tag, attrs), script in zip([t for t in found.tags if t[0] == "script"], found.scripts)
                 if attrs.get("type") == "module"]
    assert module.replace("<\\/script", "</script").replace("<\\!--", "<!--") == BUNDLE.read_text(encoding="utf-8")


def test_a_folder_path_in_the_title_is_cut_to_its_last_part():
    text = saved(TEXTS, LABELS, title="PCA of 31 texts, /home/someone/models/tiny-model · mean pooling · layer 2")
    assert "/home/someone" not in text and "models/" not in text
    assert island(text)["view"]["label"] == "PCA of 31 texts, tiny-model · mean pooling · layer 2"
    kept = "PCA of 31 texts, sentence-transformers/all-MiniLM-L6-v2 · mean pooling · layer 6"
    assert island(saved(TEXTS, LABELS, title=kept))["view"]["label"] == kept  # a hub id is not a path


def test_the_same_map_gives_the_same_bytes():
    assert saved(TEXTS, LABELS) == saved(TEXTS, LABELS)


def test_a_map_larger_than_a_file_holds_is_refused_in_one_sentence(monkeypatch):
    monkeypatch.setattr(map_file, "MAX_POINTS", 30)
    saved(TEXTS[:30], LABELS[:30])
    with pytest.raises(MapFileError, match=r"^A map file holds at most 30 points, and this map has 31: sample it"):
        saved(TEXTS, LABELS)
