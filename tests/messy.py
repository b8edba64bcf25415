"""The shared messy data (../shared/data/messy/, beside the checkout, as CI lays it): texts that repeat, labels left
blank, a corpus grown by a row, one line dominating two sets. Its README says what a correct tool does with them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

MESSY = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "messy"


def messy(name: str) -> Path:
    """The path of one of its files; a test fails without it under CI (which lays shared/ beside the clone), and is
    skipped elsewhere with the reason."""
    path = MESSY / name
    if not path.exists():
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"{path} is missing: the shared messy data lives in "
                                                               "../shared/data/messy/ beside the checkout")
    return path
