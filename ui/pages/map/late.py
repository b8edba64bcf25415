"""The map of a late-interaction model: its corpus as one point a text (the mean of a text's token vectors as a
document, drawn by the page as any corpus), or a token map of a few texts, every kept token a point coloured by its
text, on the same canvas."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.late.points import token_labels, token_points
from core.analysis.similarity import limit_problems
from core.data.corpus import lines
from core.deployment import load_config
from core.models.loading import LoadedModel
from core.plots.labels import shorten
from core.plots.map import categories
from core.plots.map_canvas import canvas_view, hover_line
from ui.components.downloads import csv_download
from ui.components.map_canvas import map_canvas
from ui.components.similarity_texts import similarity_texts
from ui.pages.map.inputs import projection_inputs
from ui.pages.map.projection import projected
from ui.state.persist import kept

POINTS = {"texts": "One point a text (a corpus)", "tokens": "One point a token (a few texts)"}
TOKEN_TEXTS = 12  # texts a token map takes
STARTING_TEXTS = 6  # of the Similarity page's, to start with
LABEL_CHARS = 40


def late_points() -> str:
    """"texts" or "tokens": what a point of the map is for a late-interaction model."""
    return kept(st.radio, "Points", key="map_late_points", url=True, default="texts", options=list(POINTS),
                format_func=POINTS.get, horizontal=True,
                help="A late-interaction model keeps a vector per token: map a corpus with each text as the mean of "
                     "its token vectors, or a few texts with every token a point of its own.")


def corpus_caption(model: LoadedModel) -> str:
    return (f"{model.model_id} keeps a vector per token, not one a text: here each text is one point, the mean of "
            f"its {model.late_pipeline.width}-dimension token vectors as a document (after the skiplist's drops), "
            "and neighbours are measured between those means. MaxSim matches token by token instead, so two texts "
            "close here are alike on average; Retrieval ranks by MaxSim itself. A typed query is placed the same "
            "way, as a document.")


def token_map_view(model: LoadedModel) -> None:
    raw = kept(st.text_area, f"Texts, one per line (up to {TOKEN_TEXTS})", key="map_token_texts", url=True,
               default="\n".join(lines(similarity_texts())[:STARTING_TEXTS]), height=150)
    texts, problems = limit_problems(lines(raw), load_config())
    for problem in problems:
        st.warning(problem)
    if len(texts) > TOKEN_TEXTS:
        st.warning(f"A token map takes up to {TOKEN_TEXTS} texts; it uses the first {TOKEN_TEXTS} of the "
                   f"{len(texts)} lines. Remove lines to choose others.")
        texts = texts[:TOKEN_TEXTS]
    if not texts:
        st.info("Type a few texts, one per line: every token each keeps as a document becomes a point.")
        return
    params = projection_inputs()
    points = token_points(model, texts)
    if len(points.tokens) < 3:
        st.info("These texts keep fewer than 3 tokens between them: type longer texts to map their tokens.")
        return
    projection = projected(points.vectors, params)
    if projection is None:
        return
    names = [f"{i + 1}. {shorten(text, LABEL_CHARS)}" for i, text in enumerate(texts)]
    colouring = categories([names[i] for i in points.text], title="text")
    coords = projection.coords
    labels = token_labels(points, coords)
    title = f"{projection.method} of the token vectors of {len(texts)} texts, {model.model_id}"
    canvas = canvas_view(coords, colouring, label=title, labels=labels)
    map_canvas(canvas, key="map_tokens_canvas", on_selection=lambda rows: None,
               hover_text=lambda row: hover_line(row, f"“{points.tokens[row]}” (token {points.position[row]} of text "
                                                      f"{points.text[row] + 1}) in: {texts[points.text[row]]}",
                                                 colouring))
    st.caption(f"{title}: every token each text keeps as a document (its prompt or marker and [CLS] / [SEP] "
               f"included, the skiplist's drops left out) is one point, {len(points.tokens):,} in all, coloured by its "
               "text; hover a point for its token and text. A token that several texts keep is labelled once, amid its "
               "points: where they land together the model reads them alike, and MaxSim matches them. Zoom in to see "
               "every token's label. Only closeness means something: the axes have no units.")
    csv_download(pd.DataFrame({"text": [texts[i] for i in points.text], "token": points.tokens,
                               "position": points.position, "x": coords[:, 0], "y": coords[:, 1]}),
                 "token-map.csv", index=False, key="map_tokens_csv")
