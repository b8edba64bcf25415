"""A late-interaction model's texts as points of a map. A text keeps a vector per token, not one vector, so the map
needs a choice: a corpus text is one point, the mean of its token vectors as a document (the vectors MaxSim compares,
averaged: texts whose tokens point alike land close, though MaxSim itself matches token by token); or every kept
token of a few texts is a point of its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import encode_multivector
from core.models.loading import LoadedModel


def token_means(matrix: TokenMatrix) -> np.ndarray:
    """(texts, width): each text's token vectors averaged; a text with no kept token is the origin."""
    vectors, offsets = matrix.rows()
    lengths = np.diff(offsets)
    sums = np.zeros((len(lengths), vectors.shape[1]), np.float64)
    kept = lengths > 0
    if kept.any():
        sums[kept] = np.add.reduceat(vectors.astype(np.float64), offsets[:-1][kept], axis=0)
    return (sums / np.maximum(lengths, 1)[:, None]).astype(np.float32)


@dataclass(frozen=True)
class TokenPoints:
    """Every kept token of some texts as a document: its vector, the text it belongs to and its position there."""

    vectors: np.ndarray  # (tokens, width)
    text: np.ndarray  # (tokens,) index of each token's text
    position: np.ndarray  # (tokens,) its place among its text's kept tokens
    tokens: tuple[str, ...]


def token_points(model: LoadedModel, texts: Sequence[str]) -> TokenPoints:
    documents = encode_multivector(model, texts, role="document")
    counts = [len(document.tokens) for document in documents]
    if not documents:
        return TokenPoints(np.zeros((0, model.late_pipeline.width), np.float32), np.zeros(0, int), np.zeros(0, int), ())
    return TokenPoints(np.concatenate([document.vectors for document in documents]),
                       np.repeat(np.arange(len(documents)), counts), np.concatenate([np.arange(n) for n in counts]),
                       tuple(token for document in documents for token in document.tokens))


def token_labels(points: TokenPoints, coords: np.ndarray) -> list[tuple[float, float, str, int, int]]:
    """The token map's labels, (x, y, text, level, size) as the canvas draws them: a token several texts keep, once at
    the middle of its points, from the first zoom level (the matches MaxSim can make); every token at its own point
    from the next level in, where the labels no longer hide the points' colours."""
    shared = []
    for token in dict.fromkeys(points.tokens):
        rows = [i for i, name in enumerate(points.tokens) if name == token]
        texts = len(set(points.text[rows].tolist()))
        if texts > 1:
            x, y = np.median(coords[rows], axis=0)
            shared.append((float(x), float(y), token, 0, texts))
    return shared + [(float(x), float(y), token, 1, 1) for (x, y), token in zip(coords, points.tokens)]
