"""The map coloured by a concept's direction: two values of a label column (or a tag against the rest) give a
direction in the map's space (core.analysis.concepts), and every point is coloured by its score along it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.concepts import direction_title, label_direction
from core.analysis.statistics import p_text
from core.plots.map import Colouring, numbers
from ui.pages.map.tags import column_labels

EVERY_OTHER = "(every other text)"
ENDS = 10


def direction_colouring(frame: pd.DataFrame, extra: dict[str, str], vectors: np.ndarray,
                        seed: int) -> Colouring | None:
    """The scores along the direction the user picks; None (said why) where there are no labels to pick from."""
    if not extra:
        st.info("A direction runs from one label to another: pick a corpus with a label column (STS-B's genre, an "
                "upload's column) or tag a selection first. Coloured by k-means clusters meanwhile.")
        return None
    left, middle, right = st.columns(3)
    name = left.selectbox("Labels of the direction", list(extra), key="map_direction_labels")
    labels = column_labels(frame, extra[name])
    values = list(dict.fromkeys(labels))
    first = middle.selectbox("From", values, key="map_direction_first")
    second = right.selectbox("Against", [EVERY_OTHER, *(value for value in values if value != first)],
                             key="map_direction_second")
    other = None if second == EVERY_OTHER else second
    try:
        found = label_direction(vectors, labels, frame["text"].tolist(), first, other, seed=seed)
    except ValueError as err:
        st.info(f"{err} Coloured by k-means clusters meanwhile.")
        return None
    against = other or f"not {first}"
    st.caption(f"Each point's colour is its score along the direction from “{against}” (low) to “{first}” (high): "
               "the weight vector of a logistic regression of one against the other on the map's standardised "
               f"vectors. The groups' separation along it (Cohen's d of out-of-fold scores) is {found.separation:.2f}; "
               f"{p_text(found.p_value)} against 100 seeded random directions.")
    texts = frame["text"].tolist()
    high, low = found.ends(texts, ENDS)
    with st.expander(f"The {ENDS} texts at each end of the direction"):
        st.dataframe(pd.DataFrame({f"most {first}": [texts[i] for i in high],
                                   f"most {against}": [texts[i] for i in low]}), hide_index=True)
    return numbers(found.scores, title=direction_title(first, other))
