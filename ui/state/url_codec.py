"""A page input's value in the URL query string, and back (no Streamlit import, so it is unit-tested).

Short plain text stays readable; longer text is zlib-compressed and base64url-encoded behind a "~". A value whose
encoding is longer than LIMIT characters is not put in a link at all (browsers and chat apps cut long URLs)."""

from __future__ import annotations

import base64
import json
import zlib

LIMIT = 3_000
PLAIN_UP_TO = 120
COMPRESSED = "~"


def encode(value: object) -> str | None:
    """The query-string form of `value` (bool, int, float, str or list of those), or None when too long."""
    if isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, (int, float)):
        text = repr(value)
    elif isinstance(value, str) and len(value) <= PLAIN_UP_TO and "\n" not in value and not value.startswith(
            COMPRESSED):
        text = value
    else:
        raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = COMPRESSED + base64.urlsafe_b64encode(zlib.compress(raw.encode("utf-8"), 9)).decode("ascii")
    return text if len(text) <= LIMIT else None


def decode(text: str, like: object) -> object:
    """The value `text` stands for, of the same type as `like`; ValueError when it does not parse."""
    if text.startswith(COMPRESSED):
        try:
            raw = zlib.decompress(base64.urlsafe_b64decode(text[1:].encode("ascii"))).decode("utf-8")
        except (ValueError, zlib.error) as err:
            raise ValueError(f"not a compressed value: {err}") from err
        return json.loads(raw) if isinstance(like, list) else raw
    if isinstance(like, bool):
        if text not in ("0", "1"):
            raise ValueError(f"not 0 or 1: {text!r}")
        return text == "1"
    if isinstance(like, int):
        return int(text)
    if isinstance(like, float):
        return float(text)
    if isinstance(like, list):
        return json.loads(text)
    return text
