"""Small JPEG thumbnails of a corpus's images, made once per image and kept in memory by the digest of its bytes
(the row id's first part), so the same picture in another corpus, or uploaded again, is not shrunk again."""

from __future__ import annotations

import base64
import io
import threading
from collections import OrderedDict

from core.data.images import ImageCorpus

SIZE = 96  # pixels on the longer side
KEPT = 4096  # thumbnails kept (about 3 kB each)
QUALITY = 80

_MADE: OrderedDict[tuple[str, int], bytes] = OrderedDict()
_LOCK = threading.Lock()


def thumbnail(corpus: ImageCorpus, row: int, size: int = SIZE) -> bytes:
    """The row's image as a JPEG no larger than `size` on either side."""
    key = (corpus.row_ids[row].split(":")[0], size)
    with _LOCK:
        if key in _MADE:
            _MADE.move_to_end(key)
            return _MADE[key]
    image = corpus.image(row)
    image.thumbnail((size, size))
    sink = io.BytesIO()
    image.save(sink, "JPEG", quality=QUALITY)
    with _LOCK:
        _MADE[key] = sink.getvalue()
        while len(_MADE) > KEPT:
            _MADE.popitem(last=False)
    return sink.getvalue()


def data_uri(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
