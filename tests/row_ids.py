"""Row ids computed apart from core.data.rows, to check it against: a text's blake2b digest (8 bytes, hex) and its
place among equal texts."""

import hashlib


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def digest_id(text: str, place: int = 0) -> str:
    return f"{digest(text)}:{place}"
