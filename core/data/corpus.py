"""A corpus is a list of distinct, trimmed texts within the deployment's limits; a labelled one is a table of every
row with its id and label."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

import pandas as pd

from core.data.rows import ROW_ID, with_row_ids
from core.deployment import load_config


class CorpusError(ValueError):
    """Input that cannot become a corpus; the message says why and what to do."""


class NoTexts(CorpusError):
    """The one refusal of an input file that holds no texts at all (0 bytes, or a table of no rows), raised by every
    command that reads texts from a file: whoever gave it most likely gave the wrong file. A one-text-a-line file of
    blank lines is not one of these: each of its lines is an empty text."""

    def __init__(self, source: str | PurePath) -> None:
        super().__init__(f"{source} holds no texts.")


def lines(text: str) -> list[str]:
    """One text a line; blank lines are skipped and surrounding spaces trimmed."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def corpus_texts(texts: list[str]) -> list[str]:
    """Trim, drop empty and repeated texts (first kept), and enforce the corpus limits of the deployment."""
    return _within_limits(list(dict.fromkeys(t.strip() for t in texts if t and t.strip())))


def _within_limits(kept: list[str]) -> list[str]:
    config = load_config()
    if not kept:
        raise CorpusError("The corpus is empty; paste texts (one a line), upload a file, or use the STS-B corpus.")
    if len(kept) > config.max_corpus_rows:
        raise CorpusError(f"The corpus has {len(kept):,} texts, over the limit of {config.max_corpus_rows:,}; "
                          "use a smaller file.")
    too_long = sum(len(t) > config.max_chars_per_text for t in kept)
    if too_long:
        raise CorpusError(f"{too_long} text(s) are longer than {config.max_chars_per_text:,} characters; "
                          "split or shorten them.")
    return kept


def labelled_corpus(texts: Sequence[str], labels: Sequence[object] | None = None,
                    row_ids: Sequence[object] | None = None) -> pd.DataFrame:
    """Every row that holds a text, trimmed, within the deployment's limits, as `row_id`, `text` and (when labels are
    given) `label`. A text repeated keeps each of its rows, each with its own label (a model computes its vector once);
    `row_ids` are the rows' own (a table this app exported), else each row is known by its text (core.data.rows)."""
    rows = [i for i, text in enumerate(texts) if text and text.strip()]
    frame = pd.DataFrame({"text": _within_limits([texts[i].strip() for i in rows])})
    if labels is not None:
        frame["label"] = [str(labels[i]) for i in rows]
    if row_ids is not None:
        frame[ROW_ID] = [row_ids[i] for i in rows]
    return with_row_ids(frame)
