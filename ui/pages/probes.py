"""The page "What each layer knows": your labels (STS-B's genres, or a label column of your file) probed at every
layer (core.evaluation.probing), then, for a layer, its confusion matrix, the texts it gets wrong, the texts whose
labels look wrong (cleanlab), tagged where the Map page shows them, and a concept's direction."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.probes import checked_labels
from core.analysis.statistics import p_shown, p_text
from core.data.corpus import CorpusError, labelled_corpus
from core.data.datasets import DatasetError, DatasetInfo, dataset_sample
from core.data.labels import TEXTS, TagError, TagStore, dataset_scope
from core.data.rows import ROW_ID, with_row_ids
from core.data.stsb import MAP_SAMPLE_SIZE, stsb_genres, stsb_sample
from core.data.uploads import column, text_columns
from core.data.vectors import TEXT_COLUMN
from core.evaluation.probing import ProbeReport
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.plots.probes import confusion_figure, direction_figure, probe_figure
from core.settings import Settings
from ui.components.columns import THREE_DECIMALS
from ui.components.downloads import csv_download
from ui.components.upload import uploaded_corpus
from ui.state.persist import kept
from ui.state.url_state import settings_to_query
from ui.work.background import probe_job, waiting
from ui.work.cache import dataset_of, listed_datasets_now

SOURCES = {"stsb": "STS-B sentences by genre (built in)", "upload": "A file with a label column"}
STSB_SIZE = 600  # the built-in example's texts: the probes of every layer in seconds
DATASET_MOST = 5_000  # a listed dataset's texts probed at most: every layer's vectors are embedded again
MISLABEL = "possible mislabel"  # the tag the mislabels are given
EVERY_OTHER = "(every other label)"


@dataclass(frozen=True)
class Labelled:
    """The texts and labels probed (`row_id`, `text`, `label`), and the listed dataset they come from, if any (its
    rows are tagged in its own scope, as the Map page shows it)."""

    frame: pd.DataFrame
    dataset: DatasetInfo | None = None


def _labelled() -> Labelled | None:
    """The texts and their labels (`row_id`, `text`, `label`): STS-B's genres, an uploaded file's label column, or a
    metadata column of a dataset the deployment lists (a folder or a store)."""
    datasets = {f"dataset:{info.name}": info for info in listed_datasets_now()[0]}
    source = kept(st.radio, "Labelled texts", key="probe_source", url=True, default="stsb", must_be_option=True,
                  options=[*SOURCES, *datasets], format_func=lambda name: SOURCES.get(name) or
                  f"Dataset: {datasets[name].label}", horizontal=True)
    if source in datasets:
        frame = _dataset_labelled(datasets[source])
        return None if frame is None else Labelled(frame, datasets[source])
    if source == "stsb":
        total = len(stsb_genres())
        size = int(kept(st.number_input, "Sentences", key="probe_size", url=True, default=STSB_SIZE,
                        min_value=30, max_value=total, step=100,
                        help="A seeded sample of STS-B's distinct sentences, each labelled with its genre (news, "
                             "image captions, forums)."))
        sample = stsb_sample(size)
        return Labelled(labelled_corpus(sample["text"].tolist(), sample["genre"].tolist()))
    uploaded = uploaded_corpus(file_key="probe_upload", column_key="probe_text",
                               hint="Upload a .csv, .jsonl or .parquet file with a text column and a label column.")
    if uploaded is None:
        return None
    table, text_col = uploaded
    others = [c for c in text_columns(table) if c not in (text_col, ROW_ID)]
    if not others:
        st.info("The file has one column: a probe needs a second, of labels (at least 2 classes of 5 texts each).")
        return None
    label_col = st.selectbox("Label column", others, key="probe_label")
    return Labelled(labelled_corpus(column(table, text_col), column(table, label_col),
                                    table[ROW_ID].tolist() if ROW_ID in table.columns else None))


def _dataset_labelled(info: DatasetInfo) -> pd.DataFrame | None:
    """A seeded sample of a listed dataset's texts, labelled by one of its metadata columns."""
    try:
        dataset = dataset_of(info.source, info.version)
    except (DatasetError, OSError) as err:
        raise CorpusError(str(err)) from err
    most = min(DATASET_MOST, info.rows)
    size = int(kept(st.number_input, "Texts", key="probe_dataset_size", url=True, default=min(STSB_SIZE, most),
                    min_value=min(30, most), max_value=most, step=100,
                    help=f"A seeded sample of the dataset's {info.rows:,} texts (seed 0), embedded again at every "
                         "layer."))
    rows, frame, _ = dataset_sample(dataset, size)
    frame = with_row_ids(frame, numbers=rows)  # as the Map page numbers them
    labels = [c for c in frame.columns if c not in (TEXT_COLUMN, ROW_ID)]
    if not labels:
        st.info(f"{info.name} has no column besides its texts: a probe needs one of labels (at least 2 classes of 5 "
                "texts each).")
        return None
    label_col = st.selectbox("Label column", labels, key="probe_dataset_label")
    return labelled_corpus(frame[TEXT_COLUMN].tolist(), frame[label_col].tolist(), frame[ROW_ID].tolist())


def probe_view(model: LoadedModel, settings: Settings) -> None:
    st.caption("Does the model separate your classes, and from which layer on? A probe is a linear classifier trained "
               "on one layer's sentence vectors to predict your labels, scored on texts it never saw (a repeated text "
               "is never on both sides). Beside it: the words alone (TF-IDF), the same architecture with random "
               "weights (what training added is the gap), and the labels shuffled (chance).")
    try:
        labelled = _labelled()
    except CorpusError as err:
        st.error(str(err))
        return
    if labelled is None:
        return
    frame = labelled.frame
    try:
        checked = checked_labels(frame["label"].tolist(), frame["text"].tolist())
    except ValueError as err:  # the labels cannot be probed: said in one sentence
        st.error(str(err))
        return
    if checked.said():
        st.info(f"{checked.said()} A blank is no class; fill labels in, or add texts to a class, to probe them.")
    report = probe_job(model, frame["text"].tolist(), frame["label"].tolist(), settings)
    if waiting(report):
        return
    _summary(model, report)
    layer = st.selectbox("Layer", [found.layer for found in report.layers], key="probe_layer",
                         index=int(np.argmax([found.probe.accuracy.mean() for found in report.layers])),
                         help="The layer whose probe the sections below look into (the most accurate at first).")
    left, right = st.columns([2, 3])
    with left:
        st.plotly_chart(confusion_figure(report.confusion(layer), layer=layer), key="probe_confusion")
    with right:
        st.markdown("**What the probe gets wrong, most confident first**")
        st.dataframe(report.wrong(layer), hide_index=True, column_config={"probability": THREE_DECIMALS})
    st.caption("Out of fold: each text is predicted by the probe of the fold that held it out.")
    _mislabels(report, labelled, layer, settings)
    _direction(report, layer)


def _summary(model: LoadedModel, report: ProbeReport) -> None:
    rows = report.frame()
    if report.note:
        st.info(f"{model.model_id} is {kind_of(model).article}: {report.note}")
    if report.untrained_note:
        st.info(f"No untrained baseline: {report.untrained_note}")
    facts = st.columns(4)
    facts[0].metric("Labelled texts", f"{len(report.texts):,}", help=", ".join(report.labels.names))
    facts[1].metric("Majority class", f"{report.labels.majority:.1%}", help="The accuracy of always answering the "
                                                                            "largest class.")
    facts[2].metric("TF-IDF of the words", f"{report.words.accuracy.mean():.1%}")
    beyond = report.first_beyond_words()
    facts[3].metric("First layer beyond the words", "none" if beyond is None else str(beyond),
                    help="The first layer whose probe beats the TF-IDF probe on the same 5 folds: the corrected "
                         "resampled t-test (Nadeau & Bengio), p under 0.05"
                         + ("" if beyond is None else f" ({p_text(report.beyond_words(beyond))})") + ".")
    st.plotly_chart(probe_figure(rows, report.labels.majority), key="probe_figure")
    st.caption("Top: the probe's accuracy at each layer (shaded: its 95% interval over the 5 folds), the same "
               "architecture with seeded random weights (the gap above it is what training added), the TF-IDF probe "
               "of the words, the labels shuffled (chance: held-out texts' shuffled labels cannot be learnt) and the "
               "majority class. Bottom: compression, the uniform code's length over the online code's (Voita & "
               "Titov): it keeps rising where accuracy saturates, so it tells which layer holds the labels more "
               "simply.")
    csv_download(rows, "what-each-layer-knows.csv", "Download the rows (CSV)", index=False, key="probe_csv")


def _where_tagged(settings: Settings, labelled: Labelled) -> None:
    """A link to the Embedding map on a corpus that holds the texts just tagged, coloured by the tag."""
    query = {**settings_to_query(settings), "map_colour": f"tag: {MISLABEL}"}
    size = len(labelled.frame)
    if labelled.dataset is not None:  # the map shows every row of a dataset by default, a larger sample at least
        st.page_link("views/map.py", icon=":material/scatter_plot:",
                     label=f"See them on the Embedding map: its view of {labelled.dataset.name} holds all of them",
                     query_params={**query, "map_source": f"dataset:{labelled.dataset.name}"})
    elif st.session_state.get("probe_source", "stsb") == "stsb":  # a larger sample holds a smaller one's texts
        shown = max(size, MAP_SAMPLE_SIZE)
        st.page_link("views/map.py", icon=":material/scatter_plot:",
                     label=f"See them on the Embedding map: its STS-B sample of {shown:,} sentences holds all of them",
                     query_params={**query, "map_source": "stsb", "map_size": str(shown)})
    else:
        st.page_link("views/map.py", icon=":material/scatter_plot:", query_params={**query, "map_source": "upload"},
                     label="See them on the Embedding map: upload the same file there (in any order, with rows added "
                           "or taken out)")


def _mislabels(report: ProbeReport, labelled: Labelled, layer: int, settings: Settings) -> None:
    st.subheader("Texts that look mislabelled")
    found = report.mislabels(layer)
    if found.empty:
        st.caption("cleanlab's confident learning finds no text whose label this layer's space disagrees with.")
        return
    st.dataframe(found.drop(columns=["row"]), hide_index=True,
                 column_config={"probability of its label": THREE_DECIMALS})
    counted = "1 text" if len(found) == 1 else f"{len(found):,} texts"
    st.caption(f"{counted} whose label the layer's space disagrees with, by cleanlab's confident learning "
               "(find_label_issues) on the probe's out-of-fold probabilities, least sure of its own label first, each "
               "with its nearest texts in the layer and their labels.")
    rows = labelled.frame[ROW_ID].to_numpy()[found["row"].to_numpy()].tolist()
    dataset = labelled.dataset
    if st.button(f"Tag them all “{MISLABEL}”", key="probe_tag"):
        try:
            TagStore().tag(TEXTS if dataset is None else dataset_scope(dataset.name, dataset.version), MISLABEL, rows)
        except TagError as err:
            st.error(str(err))
        else:
            tagged = "1 text" if len(rows) == 1 else f"{len(rows):,} texts"
            kept_by = (f"the rows of {dataset.name}: the Embedding map shows it on that dataset" if dataset else
                       "the texts themselves: the Embedding map shows it on any corpus that holds them")
            st.success(f"Tagged {tagged} “{MISLABEL}”. The tag is kept by {kept_by} (colour by “tag: possible "
                       "mislabel”), and its downloads have a tag_possible mislabel column.")
            _where_tagged(settings, labelled)


def _direction(report: ProbeReport, layer: int) -> None:
    st.subheader("A concept as a direction")
    names = report.labels.names
    left, right = st.columns(2)
    first = left.selectbox("From", names, key="probe_direction_first")
    second = right.selectbox("Against", [EVERY_OTHER, *[name for name in names if name != first]],
                             key="probe_direction_second")
    try:
        found = report.direction(layer, first, None if second == EVERY_OTHER else second)
    except ValueError as err:
        st.info(str(err))
        return
    against = f"not {first}" if second == EVERY_OTHER else second
    labels = np.asarray(names, dtype=object)[report.labels.codes]
    facts = st.columns(2)
    facts[0].metric("Separation (Cohen's d, out of fold)", f"{found.separation:.2f}")
    facts[1].metric("p against 100 random directions", p_shown(found.p_value))
    st.plotly_chart(direction_figure(found.scores, labels.tolist(), report.texts, first=first, second=against),
                    key="probe_direction_figure")
    st.caption(f"The probe of “{first}” against {against}: its weight vector, unit length, is the direction, and each "
               "text's score is its standardised vector along it. The separation is of out-of-fold scores (each text "
               "scored by a direction fitted without it); p is the share of 100 seeded random directions that "
               "separate the groups as far, as TCAV tests a concept against random ones.")
    high, low = found.ends(report.texts)
    ends = pd.DataFrame({f"most {first}": [report.texts[i] for i in high],
                         f"most {against}": [report.texts[i] for i in low]})
    st.dataframe(ends, hide_index=True)
