"""What a model's card (the README.md sentence-transformers writes beside the weights) says about its training."""

from __future__ import annotations

import json
import re
from pathlib import Path

MATRYOSHKA = re.compile(r'"matryoshka_dims"\s*:\s*(\[[\d,\s]*\])')


def matryoshka_dims(folder: Path) -> tuple[int, ...]:
    """The dimensions the model was trained to be truncated to (MatryoshkaLoss's `matryoshka_dims` in the card's
    training details), largest first; empty where the card declares none."""
    card = folder / "README.md"
    found = MATRYOSHKA.search(card.read_text(encoding="utf-8", errors="replace")) if card.is_file() else None
    return tuple(sorted(json.loads(found.group(1)), reverse=True)) if found else ()
