"""Layers' "What each layer knows": your labels (STS-B's genres, or a label column of your file) probed at every layer
(core.evaluation.probing), then, for a layer, its confusion matrix, the texts it gets wrong, the texts whose labels
look wrong (cleanlab) and a concept's direction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.probes import checked_labels
from core.data.corpus import CorpusError, labelled_corpus
from core.data.labels import TagError, TagStore, corpus_key
from core.data.rows import ROW_ID
from core.data.stsb import stsb_genres, stsb_sample
from core.data.uploads import column, text_columns
from core.evaluation.probing import ProbeReport
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.plots.probes import confusion_figure, direction_figure, probe_figure
from core.settings import Settings
from ui.components.columns import THREE_DECIMALS
from ui.components.downloads import csv_download
from ui.components.upload import uploaded_corpus
from ui.state.persist import kept
from ui.work.background import probe_job, waiting

SOURCES = {"stsb": "STS-B sentences by genre (built in)", "upload": "A file with a label column"}
STSB_SIZE = 600  # the built-in example's texts: the probes of every layer in seconds
MISLABEL = "possible mislabel"  # the tag the mislabels are given
EVERY_OTHER = "(every other label)"


def _labelled() -> pd.DataFrame | None:
    """The texts and their labels (`row_id`, `text`, `label`): STS-B's genres, or an uploaded file's label column."""
    source = kept(st.radio, "Labelled texts", key="layers_probe_source", url=True, default="stsb",
                  options=list(SOURCES), format_func=SOURCES.get, horizontal=True)
    if source == "stsb":
        total = len(stsb_genres())
        size = int(kept(st.number_input, "Sentences", key="layers_probe_size", url=True, default=STSB_SIZE,
                        min_value=30, max_value=total, step=100,
                        help="A seeded sample of STS-B's distinct sentences, each labelled with its genre (news, "
                             "image captions, forums)."))
        sample = stsb_sample(size)
        return labelled_corpus(sample["text"].tolist(), sample["genre"].tolist())
    uploaded = uploaded_corpus(file_key="layers_probe_upload", column_key="layers_probe_text",
                               hint="Upload a .csv, .jsonl or .parquet file with a text column and a label column.")
    if uploaded is None:
        return None
    table, text_col = uploaded
    others = [c for c in text_columns(table) if c not in (text_col, ROW_ID)]
    if not others:
        st.info("The file has one column: a probe needs a second, of labels (at least 2 classes of 5 texts each).")
        return None
    label_col = st.selectbox("Label column", others, key="layers_probe_label")
    return labelled_corpus(column(table, text_col), column(table, label_col),
                           table[ROW_ID].tolist() if ROW_ID in table.columns else None)


def probe_view(model: LoadedModel, settings: Settings) -> None:
    st.caption("A probe is a linear classifier trained on one layer's sentence vectors to predict your labels. High "
               "accuracy alone can mean the probe memorised the vectors, so the control task (the same probe on the "
               "labels shuffled) and the words' own baseline (TF-IDF) stand beside it.")
    try:
        frame = _labelled()
    except CorpusError as err:
        st.error(str(err))
        return
    if frame is None:
        return
    try:
        checked_labels(frame["label"].tolist())
    except ValueError as err:  # the labels cannot be probed: said in one sentence
        st.error(str(err))
        return
    report = probe_job(model, frame["text"].tolist(), frame["label"].tolist(), settings)
    if waiting(report):
        return
    _summary(model, report)
    layer = st.selectbox("Layer", [found.layer for found in report.layers], key="layers_probe_layer",
                         index=int(np.argmax([found.probe.accuracy.mean() for found in report.layers])),
                         help="The layer whose probe the sections below look into (the most accurate at first).")
    left, right = st.columns([2, 3])
    with left:
        st.plotly_chart(confusion_figure(report.confusion(layer), layer=layer), key="layers_probe_confusion")
    with right:
        st.markdown("**What the probe gets wrong, most confident first**")
        st.dataframe(report.wrong(layer), hide_index=True, column_config={"probability": THREE_DECIMALS})
    st.caption("Out of fold: each text is predicted by the probe of the fold that held it out.")
    _mislabels(report, frame, layer)
    _direction(report, layer)


def _summary(model: LoadedModel, report: ProbeReport) -> None:
    rows = report.frame()
    if report.note:
        st.info(f"{model.model_id} is {kind_of(model).article}: {report.note}")
    facts = st.columns(4)
    facts[0].metric("Texts", f"{len(report.texts):,}", help=", ".join(report.labels.names))
    facts[1].metric("Majority class", f"{report.labels.majority:.1%}", help="The accuracy of always answering the "
                                                                            "largest class.")
    facts[2].metric("TF-IDF of the words", f"{report.words.accuracy.mean():.1%}")
    beyond = report.first_beyond_words()
    facts[3].metric("First layer beyond the words", "none" if beyond is None else str(beyond),
                    help="The first layer whose probe's 95% interval lies above the TF-IDF probe's accuracy.")
    st.plotly_chart(probe_figure(rows, report.labels.majority), key="layers_probe_figure")
    st.caption("Top: the probe's accuracy at each layer (shaded: its 95% interval over the 5 folds), the control task "
               "(the same probe on the labels shuffled: far below means the probe reads the labels, not memorised "
               "vectors; the gap is the selectivity), the TF-IDF probe of the words and the majority class. Bottom: "
               "compression, the uniform code's length over the online code's (Voita & Titov): it keeps rising where "
               "accuracy saturates, so it tells which layer holds the labels more simply.")
    csv_download(rows, "what-each-layer-knows.csv", "Download the rows (CSV)", index=False, key="layers_probe_csv")


def _mislabels(report: ProbeReport, frame: pd.DataFrame, layer: int) -> None:
    st.subheader("Texts that look mislabelled")
    found = report.mislabels(layer)
    if found.empty:
        st.caption("cleanlab's confident learning finds no text whose label this layer's space disagrees with.")
        return
    st.dataframe(found.drop(columns=["row"]), hide_index=True,
                 column_config={"probability of its label": THREE_DECIMALS})
    st.caption(f"{len(found):,} texts whose label the layer's space disagrees with, by cleanlab's confident learning "
               "(find_label_issues) on the probe's out-of-fold probabilities, least sure of its own label first, each "
               "with its nearest texts in the layer and their labels.")
    rows = frame[ROW_ID].to_numpy()[found["row"].to_numpy()].tolist()
    if st.button(f"Tag them all “{MISLABEL}”", key="layers_probe_tag"):
        try:
            TagStore().tag(corpus_key(frame[ROW_ID].tolist()), MISLABEL, rows)
        except TagError as err:
            st.error(str(err))
        else:
            st.success(f"Tagged {len(rows):,} texts “{MISLABEL}”: the Map page shows the tag on the same corpus, and "
                       "its downloads have a tag_possible mislabel column.")


def _direction(report: ProbeReport, layer: int) -> None:
    st.subheader("A concept as a direction")
    names = report.labels.names
    left, right = st.columns(2)
    first = left.selectbox("From", names, key="layers_direction_first")
    second = right.selectbox("Against", [EVERY_OTHER, *[name for name in names if name != first]],
                             key="layers_direction_second")
    try:
        found = report.direction(layer, first, None if second == EVERY_OTHER else second)
    except ValueError as err:
        st.info(str(err))
        return
    against = f"not {first}" if second == EVERY_OTHER else second
    labels = np.asarray(names, dtype=object)[report.labels.codes]
    facts = st.columns(2)
    facts[0].metric("Separation (Cohen's d, out of fold)", f"{found.separation:.2f}")
    facts[1].metric("p against 100 random directions", f"{found.p_value:.3f}")
    st.plotly_chart(direction_figure(found.scores, labels.tolist(), report.texts, first=first, second=against),
                    key="layers_direction_figure")
    st.caption(f"The probe of “{first}” against {against}: its weight vector, unit length, is the direction, and each "
               "text's score is its standardised vector along it. The separation is of out-of-fold scores (each text "
               "scored by a direction fitted without it); p is the share of 100 seeded random directions that "
               "separate the groups as far, as TCAV tests a concept against random ones.")
    high, low = found.ends()
    ends = pd.DataFrame({f"most {first}": [report.texts[i] for i in high],
                         f"most {against}": [report.texts[i] for i in low]})
    st.dataframe(ends, hide_index=True)
