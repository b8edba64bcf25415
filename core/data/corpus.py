"""A corpus is a list of distinct, trimmed texts within the deployment's limits; a labelled one keeps a label
beside each text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

import pandas as pd

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
    config = load_config()
    kept = list(dict.fromkeys(t.strip() for t in texts if t and t.strip()))
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


def labelled_corpus(texts: Sequence[str], labels: Sequence[str] | None = None) -> pd.DataFrame:
    """Texts cleaned as every corpus is (`corpus_texts`), each with the label of its first occurrence when
    labels are given."""
    kept = corpus_texts(list(texts))
    frame = pd.DataFrame({"text": kept})
    if labels is not None:
        first: dict[str, str] = {}
        for text, label in zip(texts, labels):
            first.setdefault(text.strip(), str(label))
        frame["label"] = [first[text] for text in kept]
    return frame
