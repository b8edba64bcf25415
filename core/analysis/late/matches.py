"""Which of a hit's tokens matched which query tokens: the late-interaction alignment of a query and each hit, read
as a line per hit (its strongest matches) and as a table per query token (its best document token and share)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pandas as pd

from core.analysis.late.alignment import Alignment, align
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors

MATCHES_SHOWN = 3  # a hit's strongest matches named in its line


def hit_alignments(query: TokenVectors, corpus: TokenMatrix, hits: Sequence[int], similarity: str) -> list[Alignment]:
    """The query aligned with each hit of the corpus, in the hits' order."""
    return [align(query, corpus.text(int(hit)), similarity) for hit in hits]


def token_use(alignment: Alignment, row: int) -> str:
    query = alignment.query
    return "expansion" if query.expansion[row] else "prompt" if query.prompt[row] else "typed"


def matches_line(alignment: Alignment, *, skip: Collection[str] = (), shown: int = MATCHES_SHOWN) -> str:
    """The typed query tokens that add most to the score, each with the document token it matched and their
    similarity, e.g. "guitar → guitar 0.91 · man → man 0.88"; `skip` leaves out tokens such as [CLS]."""
    query, document = alignment.query, alignment.document
    rows = [row for row in range(len(query.tokens)) if query.typed[row] and query.tokens[row] not in skip]
    rows = sorted(rows, key=lambda row: -alignment.shares[row])[:shown]
    return " · ".join(f"{query.tokens[row]} → {document.tokens[alignment.best[row]]} "
                      f"{alignment.grid[row, alignment.best[row]]:.2f}" for row in rows)


def matches_table(alignment: Alignment) -> pd.DataFrame:
    """One row per query token: its use (typed, expansion, prompt; in the column "kind", the name the CSV has kept),
    the document token it matched best (with its position among the document's kept tokens, from 1), their
    similarity, and its share of the score."""
    query, document = alignment.query, alignment.document
    return pd.DataFrame({
        "query token": list(query.tokens),
        "kind": [token_use(alignment, row) for row in range(len(query.tokens))],
        "best document token": [document.tokens[column] if len(document.tokens) else "" for column in alignment.best],
        "position": [int(column) + 1 for column in alignment.best],
        "similarity": [float(alignment.grid[row, column]) if len(document.tokens) else float("nan")
                       for row, column in enumerate(alignment.best)],
        "share of score": alignment.shares.astype(float),
    })
