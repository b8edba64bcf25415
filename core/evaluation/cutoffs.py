"""The k of recall@k: the default cut-offs and how a user types them (the Evaluation page, the command line's --k).
It imports nothing, so that parsing the command line's arguments loads no numpy, scipy or scikit-learn."""

from __future__ import annotations

DEFAULT_KS = (1, 5, 10, 20, 50)


def parse_ks(text: str) -> list[int]:
    """"1, 5, 10" -> [1, 5, 10] (sorted, distinct); anything else is a ValueError that says what to type."""
    try:
        ks = sorted({int(part) for part in text.replace(";", ",").split(",") if part.strip()})
    except ValueError as err:
        raise ValueError(f"k values are whole numbers separated by commas, like 1, 5, 10; not {text!r}.") from err
    if not ks or ks[0] < 1:
        raise ValueError(f"k values must be 1 or more, like 1, 5, 10; not {text!r}.")
    return ks
