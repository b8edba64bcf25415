"""The one map-canvas decoder of the tests: a canvas drawn under AppTest, back as its view and its binary columns,
each column checked against the content key its view names it by."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import numpy as np

KEY = 32


@dataclass(frozen=True)
class DrawnCanvas:
    view: dict
    blobs: dict[str, bytes]  # name -> the element's bytes (key and payload)
    positions: np.ndarray  # (n, 2) in the canvas's units
    codes: np.ndarray
    highlight: np.ndarray | None  # bool per point

    def legend(self) -> dict[str, int]:
        """Legend name -> points."""
        return {item["name"]: item["count"] for item in self.view["legend"]["items"]}

    def members(self, name: str) -> np.ndarray:
        code = next(item["code"] for item in self.view["legend"]["items"] if item["name"] == name)
        return np.flatnonzero(self.codes == code)


def _payload(data: bytes, key: str) -> bytes:
    assert data[:KEY].decode() == key == hashlib.blake2b(data[KEY:], digest_size=KEY // 2).hexdigest()
    return data[KEY:]


def canvas(at, key: str = "map_canvas") -> DrawnCanvas:
    elements = {element.proto.id.rsplit("-", 1)[-1]: element.proto for element in at.get("bidi_component")}
    if key not in elements:
        raise AssertionError(f"no map canvas with key {key!r} on the page")
    view = json.loads(elements[key].json)
    blobs = {name: elements[f"{key}_{name}"].bytes for name in ("positions", "codes", "highlight")
             if f"{key}_{name}" in elements}
    n = view["n"]
    xy = np.frombuffer(_payload(blobs["positions"], view["positions"]), dtype=np.float32)
    codes = np.frombuffer(_payload(blobs["codes"], view["codes"]), dtype=np.uint8)
    highlight = None
    if view["highlight"] is not None:
        bits = np.frombuffer(_payload(blobs["highlight"], view["highlight"]), dtype=np.uint8)
        highlight = np.unpackbits(bits, bitorder="little")[:n].astype(bool)
    assert len(xy) == 2 * n and len(codes) == n
    return DrawnCanvas(view, blobs, np.column_stack([xy[:n], xy[n:]]), codes, highlight)
