"""The texts typed on the Similarity page, which the Map page can map too."""

from __future__ import annotations

from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from ui.state.persist import kept_value

KEY = "sim_texts"
DEFAULT = "\n".join(EXAMPLES[PARAPHRASE_CLUSTERS])


def similarity_texts() -> str:
    """What the Similarity page's text box holds (its example set until the user edits it there)."""
    return kept_value(KEY, DEFAULT)
