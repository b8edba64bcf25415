"""Which corpus the map shows, with the labels it brings: the built-in sentences, an upload, the Similarity
page's texts, a vectors file, a listed dataset, or two sets compared (each row's set its label)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.map.projection import FIT_POINTS, MAX_POINTS
from core.analysis.set_drift import MAX_TEXTS, MIN_TEXTS
from core.data.corpus import CorpusError, labelled_corpus, lines
from core.data.datasets import Dataset, DatasetError, DatasetInfo, dataset_sample
from core.data.labels import TEXTS, dataset_scope
from core.data.rows import ROW_ID, with_row_ids
from core.data.stsb import MAP_SAMPLE_SIZE, STSB_SETS, stsb_genres, stsb_sample, stsb_set
from core.data.uploads import column, text_columns
from core.data.vectors import FILES_HINT, TEXT_COLUMN, VECTOR_FILE_TYPES, read_vector_files
from core.evaluation.example_index import WRITTEN_BY
from ui.components.similarity_texts import similarity_texts
from ui.components.upload import uploaded_corpus
from ui.state.persist import kept, set_kept
from ui.work.cache import column_order, dataset_of, example_index_now, listed_datasets_now

SOURCES = {"stsb": "STS-B sentences (built in)", "upload": "Upload a file",
           "similarity": "Texts of the Similarity page", "vectors": "A vectors file (no model needed)",
           "sets": "Two sets: has new data drifted?", "example_index": "An example index: are its vectors the model's?"}
SET_COLUMN = "set"  # a two-set map's label column: REFERENCE or NEW
REFERENCE, NEW = "reference", "new"
UPLOADED = "upload"
EVERY_ROW = "(every row)"
NO_LABEL = "(none)"
READ_FILES = "map_read_vector_files"  # session key: the uploaded files' ids and the corpus read from them


def _colour_by_label() -> None:
    """Picking a label column means: colour by it."""
    label = st.session_state.map_label_col
    if label != NO_LABEL:
        set_kept("map_colour", label)


@dataclass(frozen=True)
class MapCorpus:
    """The points' table (`row_id`, `text` and any label columns), the colourings it brings (shown name -> column),
    and the vectors when they came with the file (then no model embeds them)."""

    frame: pd.DataFrame
    colourings: dict[str, str]
    vectors: np.ndarray | None = None
    files: str = ""  # the vectors' file names, for the map's title
    dataset: Dataset | None = None  # the whole dataset the points are a sample of
    sets: tuple[list[str], list[str]] | None = None  # two sets compared: the reference texts and the new ones

    @property
    def key(self) -> str:
        """The scope the corpus's tags are kept in (core.data.labels): every corpus of texts shares one; a dataset's
        is its name and version."""
        if self.dataset is not None:
            return dataset_scope(self.dataset.info.name, self.dataset.info.version)
        return TEXTS


def _vector_corpus() -> MapCorpus | None:
    files = st.file_uploader("Vector files", type=list(VECTOR_FILE_TYPES), accept_multiple_files=True,
                             key="map_vector_files", help=FILES_HINT)
    if not files:
        st.session_state.pop(READ_FILES, None)
        st.info(FILES_HINT)
        return None
    ids = tuple(file.file_id for file in files)
    if st.session_state.get(READ_FILES, (None,))[0] != ids:  # read once per upload, not on every rerun
        found = read_vector_files([(file.name, file.getvalue()) for file in files])
        frame = with_row_ids(pd.concat([pd.DataFrame({"text": found.texts}), found.metadata.reset_index(drop=True)],
                                       axis=1))
        st.session_state[READ_FILES] = ids, found, frame
    _, found, frame = st.session_state[READ_FILES]
    st.caption(f"{len(frame):,} vectors of {found.vectors.shape[1]} dimensions, as the file gives them: no model "
               "embeds these texts.")
    return MapCorpus(frame, _labels(frame), found.vectors, " + ".join(file.name for file in files))


def _dataset_corpus(info: DatasetInfo) -> MapCorpus:
    try:
        dataset = dataset_of(info.source, info.version)
    except (DatasetError, OSError) as err:
        raise CorpusError(str(err)) from err
    most = min(MAX_POINTS, info.rows)
    size = int(kept(st.number_input, "Texts on the map", key="map_dataset_size", url=True, default=most,
                    min_value=min(2, most), max_value=most, step=1000,
                    help="Every text by default; fewer make a seeded random sample (a quicker t-SNE or UMAP)."))
    rows, frame, vectors = dataset_sample(dataset, size)
    frame = with_row_ids(frame, numbers=rows)
    shown = (f"A seeded random sample of {len(frame):,} of the dataset's {info.rows:,} texts (seed 0)"
             if len(frame) < info.rows else f"All {info.rows:,} texts of the dataset")
    st.caption(f"{shown}, with their stored vectors; the query's nearest texts are searched among all of them below "
               f"the map. Above {FIT_POINTS:,} points, t-SNE, UMAP and k-means are fitted on a seeded sample of "
               f"{FIT_POINTS:,} and place the others with the fitted model; PCA is exact.")
    return MapCorpus(frame, _labels(frame), vectors, info.name, dataset)


def _labels(frame: pd.DataFrame) -> dict[str, str]:
    """A table's columns besides its row ids and texts: each a colouring of the map."""
    return {str(c): str(c) for c in frame.columns if c not in (ROW_ID, "text")}


def _one_set(side: str, default: str, size: int) -> list[str] | None:
    """One of the two sets: built in, a seeded sample of a listed dataset's texts, or the texts of an uploaded file;
    None until it is uploaded."""
    name = "Reference set" if side == REFERENCE else "New set"
    datasets = {f"dataset:{info.name}": info for info in listed_datasets_now()[0]}
    names = {**STSB_SETS, **{key: f"Dataset: {info.label}" for key, info in datasets.items()},
             UPLOADED: "Upload a file"}
    chosen = kept(st.selectbox, name, key=f"map_set_{side}", url=True, default=default, must_be_option=True,
                  options=list(names), format_func=names.__getitem__)
    if chosen in datasets:
        return _dataset_set(side, datasets[chosen], size)
    if chosen in STSB_SETS:
        return stsb_set(chosen, size)
    uploaded = uploaded_corpus(file_key=f"map_set_{side}_file", column_key=f"map_set_{side}_column",
                               column_label=f"Text column ({side} set)", label=f"{name} file")
    if uploaded is None:
        return None
    table, text_col = uploaded
    return [text for text in (value.strip() for value in column(table, text_col)) if text]


def _dataset_set(side: str, info: DatasetInfo, size: int) -> list[str] | None:
    """A seeded sample of a listed dataset's texts: of every row, or of the rows whose value in one of its columns
    lies in a range (one dataset before and after a date, as two sets); None while no row lies in it."""
    try:
        dataset = dataset_of(info.source, info.version)
    except (DatasetError, OSError) as err:
        raise CorpusError(str(err)) from err
    columns = [name for name in dataset.table.column_names if name not in (TEXT_COLUMN, ROW_ID)]
    where = kept(st.selectbox, f"Rows of {info.name} ({side} set)", key=f"map_set_{side}_where", url=True,
                 default=EVERY_ROW, must_be_option=True, options=[EVERY_ROW, *columns],
                 help="Only the rows whose value in a column lies in a range: one dataset before and after a date "
                      "as two sets. Numbers and dates are compared as such; a blank lies in no range.")
    among = None
    if where != EVERY_ROW:
        values = column_order(info.source, info.version, where)
        if not values.distinct:
            st.info(f"Every row of {info.name} has a blank {where}: pick another column.")
            return None
        low, high = st.columns(2)
        first = kept(low.selectbox, f"{where} from ({side} set)", key=f"map_set_{side}_from", url=True,
                     default=values.distinct[0], must_be_option=True, options=values.distinct)
        last = kept(high.selectbox, f"{where} to ({side} set)", key=f"map_set_{side}_to", url=True,
                    default=values.distinct[-1], must_be_option=True, options=values.distinct)
        among = values.within(first, last)
        blank = f"; {values.blank:,} with a blank {where} lie in no range" if values.blank else ""
        st.caption(f"{len(among):,} of {info.name}'s {info.rows:,} rows have a {where} from {first} to {last} (read "
                   f"as {values.reading}){blank}.")
    return dataset_sample(dataset, min(size, info.rows), among=among)[1][TEXT_COLUMN].tolist()


def _two_sets() -> MapCorpus | None:
    """Two sets on one map, each row's set its label (`set`: reference or new), with both sets' texts."""
    size = int(kept(st.number_input, "Texts per set (built in or a dataset)", key="map_set_size", url=True, default=300,
                    min_value=MIN_TEXTS, max_value=MAX_TEXTS, step=100,
                    help=f"A seeded random sample of each built-in set or dataset; an uploaded set above "
                         f"{MAX_TEXTS:,} texts is compared on a seeded sample of {MAX_TEXTS:,}."))
    reference, current = _one_set(REFERENCE, "news", size), _one_set(NEW, "forums", size)
    if reference is None or current is None:
        return None
    frame = labelled_corpus(reference + current, [REFERENCE] * len(reference) + [NEW] * len(current))
    return MapCorpus(frame.rename(columns={"label": SET_COLUMN}), {SET_COLUMN: SET_COLUMN},
                     sets=(reference, current))


def map_corpus() -> MapCorpus | None:
    """The corpus to map; None until it is ready. Raises CorpusError for a file that cannot be read."""
    datasets = {f"dataset:{info.name}": info for info in listed_datasets_now()[0]}
    source = kept(st.radio, "Corpus", key="map_source", url=True, default="stsb", must_be_option=True,
                  options=[*SOURCES, *datasets],
                  format_func=lambda name: SOURCES.get(name) or f"Dataset: {datasets[name].label}")
    if source in datasets:
        return _dataset_corpus(datasets[source])
    if source == "stsb":
        total = len(stsb_genres())
        size = kept(st.number_input, "Sentences in the sample", key="map_size", url=True, default=MAP_SAMPLE_SIZE,
                    min_value=2, max_value=total, step=500,
                    help=f"A seeded random sample of the {total:,} distinct STS-B sentences (news, image captions, "
                         "forums).")
        return MapCorpus(with_row_ids(stsb_sample(int(size))), {"genre": "genre"})
    if source == "similarity":
        st.caption("The texts typed on the Similarity page (its example set until you edit it there).")
        return MapCorpus(labelled_corpus(lines(similarity_texts())), {})
    if source == "vectors":
        return _vector_corpus()
    if source == "sets":
        return _two_sets()
    if source == "example_index":
        stored = example_index_now()
        frame = pd.concat([pd.DataFrame({"text": stored.texts}), stored.metadata], axis=1)
        st.caption(f"{len(frame):,} STS-B sentences and the vectors an index stores for them, as a search service "
                   f"keeps them: the model that wrote each is in the column {WRITTEN_BY} (a real index rarely says). "
                   "Check them against the sidebar's model below the map.")
        return MapCorpus(with_row_ids(frame), _labels(frame), stored.vectors, "an example index")
    uploaded = uploaded_corpus(file_key="map_upload", column_key="map_text_col",
                               help=".txt: one text a line; .csv / .jsonl: pick the text column and, if you like, "
                                    "a label column to colour by.")
    if uploaded is None:
        return None
    table, text_col = uploaded
    others = [c for c in text_columns(table) if c not in (text_col, ROW_ID)]
    label_col = st.selectbox("Label column (colour)", [NO_LABEL, *others], key="map_label_col",
                             on_change=_colour_by_label) if others else NO_LABEL
    labels = None if label_col == NO_LABEL else column(table, label_col)
    frame = labelled_corpus(column(table, text_col), labels,
                            table[ROW_ID].tolist() if ROW_ID in table.columns else None)
    dropped = len(table) - len(frame)
    if dropped:
        st.caption(f"{dropped:,} empty row(s) were dropped: a point needs a text.")
    return MapCorpus(frame, {label_col: "label"} if labels is not None else {})
