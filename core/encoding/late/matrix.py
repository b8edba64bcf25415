"""Many texts' token vectors as one float32 matrix with per-text offsets: a late-interaction corpus as MaxSim searches
it (one matrix product against every token of every text) and as the disk cache keeps it, memory-mapped. Each row's
token is kept as UTF-8 bytes with per-token offsets, so a hit's tokens are read without parsing the others."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.encoding.late.tokens import TokenVectors

EXPANSION, PROMPT = 1, 2  # bits of `flags`: a query expansion token, a prompt or marker token


@dataclass(frozen=True)
class TokenMatrix:
    """Text i's token vectors are `vectors[offsets[i]:offsets[i + 1]]`; offsets index the whole matrix, so a slice of
    texts shares every array with the corpus it comes from (nothing is copied)."""

    vectors: np.ndarray  # (tokens, width) float32
    offsets: np.ndarray  # (texts + 1,) int64, ascending
    flags: np.ndarray  # (tokens,) uint8: EXPANSION | PROMPT
    truncated: np.ndarray  # (texts,) bool: cut at the role's length
    token_bytes: np.ndarray  # uint8: every token's UTF-8, one after another
    token_starts: np.ndarray  # (tokens + 1,) int64 into token_bytes

    @classmethod
    def of(cls, texts: Sequence[TokenVectors], width: int | None = None) -> TokenMatrix:
        """The texts' token vectors stacked (a copy), with their tokens and marks."""
        width = width if width is not None else next((text.vectors.shape[1] for text in texts), 0)
        lengths = np.array([len(text.tokens) for text in texts], np.int64)
        vectors = (np.concatenate([text.vectors for text in texts]) if texts else np.zeros((0, width), np.float32))
        flags = (np.concatenate([text.expansion * EXPANSION + text.prompt * PROMPT for text in texts]).astype(np.uint8)
                 if texts else np.zeros(0, np.uint8))
        encoded = [token.encode("utf-8") for text in texts for token in text.tokens]
        return cls(np.ascontiguousarray(vectors, np.float32).reshape(-1, width), _starts(lengths), flags,
                   np.array([text.truncated for text in texts], bool),
                   np.frombuffer(b"".join(encoded), np.uint8), _starts(np.array([len(e) for e in encoded], np.int64)))

    @classmethod
    def bare(cls, vectors: np.ndarray, offsets: np.ndarray) -> TokenMatrix:
        """Token vectors to score, without their tokens or marks (each token reads as "")."""
        return cls(vectors, offsets, np.zeros(len(vectors), np.uint8), np.zeros(len(offsets) - 1, bool),
                   np.zeros(0, np.uint8), np.zeros(len(vectors) + 1, np.int64))

    @property
    def shape(self) -> tuple[int, int]:
        """(texts, width): what a search over rows reads as its corpus size."""
        return len(self.offsets) - 1, self.vectors.shape[1]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def lengths(self) -> np.ndarray:
        """Each text's kept tokens."""
        return np.diff(self.offsets)

    @property
    def token_count(self) -> int:
        return int(self.offsets[-1] - self.offsets[0])

    @property
    def nbytes(self) -> int:
        """What the texts' token vectors take as float32."""
        return self.token_count * self.vectors.shape[1] * self.vectors.itemsize

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The texts' own vectors (a view) and their offsets into them, from 0."""
        return self.vectors[self.offsets[0]:self.offsets[-1]], self.offsets - self.offsets[0]

    def __getitem__(self, texts: slice) -> TokenMatrix:
        start, stop, step = texts.indices(len(self))
        if step != 1:
            raise ValueError("A TokenMatrix is sliced by runs of texts.")
        stop = max(start, stop)
        return TokenMatrix(self.vectors, self.offsets[start:stop + 1], self.flags, self.truncated[start:stop],
                           self.token_bytes, self.token_starts)

    def per_text(self) -> list[np.ndarray]:
        """Each text's token vectors (views, in order)."""
        vectors, offsets = self.rows()
        return np.split(vectors, offsets[1:-1])

    def gathered(self, texts: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """These texts' vectors gathered into one matrix (a copy) and their offsets into it, from 0: a few candidates
        scored apart from the rest."""
        texts = np.asarray(texts, np.int64)
        starts, lengths = self.offsets[texts], self.offsets[texts + 1] - self.offsets[texts]
        offsets = _starts(lengths)
        return self.vectors[np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1])], offsets

    def tokens(self, text: int) -> tuple[str, ...]:
        first, last = int(self.offsets[text]), int(self.offsets[text + 1])
        ends = self.token_starts[first:last + 1]
        data = self.token_bytes[int(ends[0]):int(ends[-1])].tobytes()
        bounds = ends - ends[0]
        return tuple(data[int(a):int(b)].decode("utf-8") for a, b in zip(bounds[:-1], bounds[1:]))

    def text(self, i: int) -> TokenVectors:
        """Text i as the alignment reads it (the skiplist's drops are not kept here: `dropped` is empty)."""
        first, last = int(self.offsets[i]), int(self.offsets[i + 1])
        flags = self.flags[first:last]
        vectors = np.asarray(self.vectors[first:last], np.float32).view()
        vectors.flags.writeable = False
        expansion, prompt = (flags & EXPANSION).astype(bool), (flags & PROMPT).astype(bool)
        for array in (expansion, prompt):
            array.flags.writeable = False
        return TokenVectors(self.tokens(i), vectors, expansion, prompt, (), bool(self.truncated[i]))


def _starts(lengths: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)
