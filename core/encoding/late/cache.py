"""A late-interaction corpus kept on disk, as the embedding cache keeps dense vectors: one file per model, role and
texts (named by their content hash), so a restart or another visitor does not encode the corpus again.

A file holds a magic line, a JSON header (key, counts, blake2b digest of the rest) padded to HEADER_BYTES, then the
TokenMatrix's arrays, each at a 64-byte boundary: every token vector as one float32 matrix, the per-text offsets into
it, each token's offsets into the tokens' UTF-8 bytes, the expansion/prompt marks, the texts cut at the role's length,
and the tokens' bytes. It is read memory-mapped and read-only: one copy in the page cache however many sessions search
it. A file that is short, garbled or from another key is deleted and rebuilt, never read."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import BinaryIO

import numpy as np

from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import Progress
from core.encoding.file_memo import FileMemo
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import encode_multivector
from core.hashing import texts_digest
from core.models.loading import LoadedModel
from core.paths import atomic_write, cache_dir
from core.settings import Role

MAGIC = b"EXPLORER-TOKENS 1\n"
HEADER_BYTES = 4096  # the magic line and the padded JSON header: the arrays start here
ALIGN = 64
KEY_VERSION = 1
ENCODE_STEP = 4096  # texts encoded, then written, at a time: a large corpus is never held whole in memory
DIGEST_STEP = 64 * 2**20  # bytes hashed at a time when a file is checked

# (name, dtype, shape from the header's counts) in file order
SECTIONS: tuple[tuple[str, str, Callable[[dict], tuple[int, ...]]], ...] = (
    ("vectors", "<f4", lambda h: (h["tokens"], h["width"])),
    ("offsets", "<i8", lambda h: (h["texts"] + 1,)),
    ("token_starts", "<i8", lambda h: (h["tokens"] + 1,)),
    ("flags", "u1", lambda h: (h["tokens"],)),
    ("truncated", "u1", lambda h: (h["texts"],)),
    ("token_bytes", "u1", lambda h: (h["token_bytes"],)),
)

# matrices read, by file version: memory-mapped, so what they hold lies in the page cache, not in this process
_memo = FileMemo(8 * 2**30)


def late_key(model: LoadedModel, texts: Sequence[str], role: Role) -> str:
    """Equal keys mean equal token vectors: the model's weights and the pipeline around them (lengths, expansion,
    skiplist, projection, pooling, prompts), the side the texts are encoded as, and the texts."""
    pipeline = model.late_pipeline
    options = {"version": KEY_VERSION, "kind": "late interaction", "model": model.model_id,
               "fingerprint": model.fingerprint, "role": "query" if role == "query" else "document",
               "stages": [[stage.module_type, stage.detail] for stage in pipeline.stages], "width": pipeline.width,
               "lengths": [pipeline.query_length, pipeline.document_length], "expansion": pipeline.expansion,
               "skiplist": [list(pipeline.skiplist), list(pipeline.skiplist_tasks)], "prompts": pipeline.prompts}
    return texts_digest(texts, prefix=json.dumps(options, sort_keys=True, default=str).encode())


def late_file(key: str) -> Path:
    return cache_dir() / "embeddings" / f"{key}.tok"


def _aligned(position: int) -> int:
    return -(-position // ALIGN) * ALIGN


def _layout(header: dict) -> list[tuple[str, np.dtype, tuple[int, ...], int]]:
    """Each array's name, dtype, shape and byte offset in the file."""
    found, position = [], HEADER_BYTES
    for name, type_name, shape_of in SECTIONS:
        shape, dtype = shape_of(header), np.dtype(type_name)
        found.append((name, dtype, shape, position))
        position = _aligned(position + int(np.prod(shape)) * dtype.itemsize)
    return found


class _Writer:
    """Writes the vectors as they come (after the header's room), keeps the small arrays until the end, and hashes
    every byte after the header in the order it is written."""

    def __init__(self, handle: BinaryIO, width: int | None) -> None:
        self.handle, self.width = handle, width
        self.digest = hashlib.blake2b(digest_size=20)
        self.lengths: list[np.ndarray] = []
        self.token_lengths: list[np.ndarray] = []
        self.flags: list[np.ndarray] = []
        self.truncated: list[np.ndarray] = []
        self.token_bytes: list[bytes] = []
        self.tokens = 0
        handle.write(b"\0" * HEADER_BYTES)

    def _put(self, data: bytes | memoryview) -> None:
        self.handle.write(data)
        self.digest.update(data)

    def add(self, part: TokenMatrix) -> None:
        vectors, offsets = part.rows()
        if len(vectors):
            if self.width is not None and vectors.shape[1] != self.width:
                raise ValueError(f"The token vectors are of different widths ({self.width} and {vectors.shape[1]}); "
                                 "embed the texts again with one model.")
            self.width = vectors.shape[1]
        self._put(np.ascontiguousarray(vectors, "<f4").data)
        self.tokens += len(vectors)
        self.lengths.append(np.diff(offsets))
        first, last = int(part.offsets[0]), int(part.offsets[-1])
        starts = part.token_starts[first:last + 1]
        self.token_lengths.append(np.diff(starts))
        self.token_bytes.append(part.token_bytes[int(starts[0]):int(starts[-1])].tobytes())
        self.flags.append(np.asarray(part.flags[first:last], np.uint8))
        self.truncated.append(np.asarray(part.truncated, np.uint8))

    def finish(self, key: str) -> None:
        def joined(parts: list[np.ndarray], dtype: str) -> np.ndarray:
            return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

        lengths, token_lengths = joined(self.lengths, "<i8"), joined(self.token_lengths, "<i8")
        data = b"".join(self.token_bytes)
        header = {"key": key, "texts": len(lengths), "tokens": self.tokens, "width": self.width or 0,
                  "token_bytes": len(data)}
        arrays = {"offsets": np.concatenate([[0], np.cumsum(lengths)]).astype("<i8"),
                  "token_starts": np.concatenate([[0], np.cumsum(token_lengths)]).astype("<i8"),
                  "flags": joined(self.flags, "u1"), "truncated": joined(self.truncated, "u1"),
                  "token_bytes": np.frombuffer(data, np.uint8)}
        for name, _, _, position in _layout(header):
            self._put(b"\0" * (position - self.handle.tell()))
            if name != "vectors":
                self._put(np.ascontiguousarray(arrays[name]).data)
        line = MAGIC + json.dumps({**header, "digest": self.digest.hexdigest()}).encode()
        if len(line) >= HEADER_BYTES:
            raise ValueError("A token-vector file's header outgrew its room.")
        self.handle.seek(0)
        self.handle.write(line + b" " * (HEADER_BYTES - len(line) - 1) + b"\n")


def write_token_matrix(path: Path, key: str, width: int | None, parts: Iterable[TokenMatrix]) -> None:
    """The parts, one after another, as one file under `key` (written whole or not at all); `width` None takes the
    first part's (ValueError when a part's differs)."""
    def write(tmp: Path) -> None:
        with tmp.open("wb") as handle:
            writer = _Writer(handle, width)
            for part in parts:
                writer.add(part)
            writer.finish(key)

    atomic_write(path, write)


def read_token_matrix(path: Path, key: str) -> TokenMatrix | None:
    """The file's matrix, memory-mapped read-only, or None when it is missing or fails a check (then it is
    deleted)."""
    try:
        raw = np.memmap(path, np.uint8, mode="r")
    except FileNotFoundError:
        return None
    except ValueError:  # an empty file cannot be mapped
        path.unlink(missing_ok=True)
        return None
    found = _checked(raw, key)
    if found is None:
        path.unlink(missing_ok=True)
    return found


def _checked(raw: np.ndarray, key: str) -> TokenMatrix | None:
    head = raw[:HEADER_BYTES].tobytes()
    if len(raw) < HEADER_BYTES or not head.startswith(MAGIC):
        return None
    try:
        header = json.loads(head[len(MAGIC):])
        layout = _layout(header)
    except (ValueError, KeyError, TypeError):
        return None
    name, dtype, shape, position = layout[-1]
    if header.get("key") != key or len(raw) != position + int(np.prod(shape)) * dtype.itemsize:
        return None
    digest = hashlib.blake2b(digest_size=20)
    for start in range(HEADER_BYTES, len(raw), DIGEST_STEP):
        digest.update(raw[start:start + DIGEST_STEP].data)
    if digest.hexdigest() != header.get("digest"):
        return None
    arrays = {name: raw[position:position + int(np.prod(shape)) * dtype.itemsize].view(dtype).reshape(shape)
              for name, dtype, shape, position in layout}
    offsets = arrays["offsets"]
    if offsets[0] != 0 or offsets[-1] != header["tokens"] or np.any(np.diff(offsets) < 0):
        return None
    return TokenMatrix(arrays["vectors"], offsets, arrays["flags"], arrays["truncated"].view(bool),
                       arrays["token_bytes"], arrays["token_starts"])


def stored_file(path: Path, key: str) -> TokenMatrix | None:
    """The file's matrix, from the memo while the file is the one it was read from (checked once per version)."""
    return _memo.read(path, key, read_token_matrix)


def stored_token_matrix(model: LoadedModel, texts: Sequence[str], role: Role = "document") -> TokenMatrix | None:
    """The texts' token vectors if they are on disk already, else None (nothing is encoded)."""
    key = late_key(model, texts, role)
    return stored_file(late_file(key), key)


def _encoded(model: LoadedModel, texts: list[str], role: Role, progress: Progress | None) -> Iterable[TokenMatrix]:
    for start in range(0, len(texts), ENCODE_STEP):
        done = (lambda n, _, base=start: progress(base + n, len(texts))) if progress is not None else None
        yield TokenMatrix.of(encode_multivector(model, texts[start:start + ENCODE_STEP], role=role, progress=done),
                             model.late_pipeline.width)


def cached_token_matrix(model: LoadedModel, texts: Sequence[str], role: Role = "document",
                        progress_bar: ProgressBar = nullcontext) -> TokenMatrix:
    """The texts' token vectors as encode_query (role "query") or encode_document gives them, memory-mapped from
    disk, else encoded (a step at a time, under `progress_bar()`) and stored first."""
    texts = list(texts)
    key = late_key(model, texts, role)
    path = late_file(key)
    found = stored_file(path, key)
    if found is not None:
        return found
    with progress_bar() as progress:
        write_token_matrix(path, key, model.late_pipeline.width, _encoded(model, texts, role, progress))
    found = stored_file(path, key)
    if found is None:
        raise OSError(f"The token vectors written to {path} did not read back; check the disk and try again.")
    return found
