"""Working with the map's points: what a selection holds (and one point's neighbourhood), what each cluster is
about, which texts moved between two configurations, and the vectors to take elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.agreement import Overlap
from core.analysis.map.neighbours import movers, point_neighbours
from core.analysis.map.projection import NOISE, PlacedQuery
from core.analysis.ranking import hits_ranking
from core.data.datasets import Dataset
from core.data.rows import ROW_ID, positions_of
from core.data.vectors import VectorCorpus, to_npy, to_parquet, to_projector
from core.hashing import texts_digest
from ui.components.agreement import changed_panel
from ui.components.columns import THREE_DECIMALS
from ui.components.downloads import csv_download, file_download
from ui.work.background import index_job, waiting
from ui.work.cache import keywords_of, selection_keywords_of, selection_of

# session key: the row ids selected on the map, kept across reruns, colourings, samples and a corpus uploaded again in
# another order (core.data.rows)
SELECTED_ROWS = "map_selected"
LISTED = 1_000  # selected points listed with their nearest text; finding it for 50,000 would take a minute


def remember_selection(row_ids: Sequence[str]) -> Callable[[list[int]], None]:
    """The selection callback of a canvas drawing the rows `row_ids`: keep the ids of the points selected."""
    def remember(points: list[int]) -> None:
        st.session_state[SELECTED_ROWS] = [row_ids[i] for i in points]

    return remember


def selected_points(frame: pd.DataFrame) -> list[int]:
    """Where the rows selected are among `frame`'s, in its order; rows it lacks are left out."""
    return positions_of(frame[ROW_ID].tolist(), st.session_state.get(SELECTED_ROWS, []))


def selection_panel(frame: pd.DataFrame, vectors: np.ndarray, coords: np.ndarray,
                    tag: Callable[[list[str]], None]) -> None:
    """The selected rows with their nearest texts and keywords, and `tag(row_ids)` to name them."""
    chosen = selected_points(frame)
    st.subheader("Selected points")
    if not chosen:
        st.caption("Click a point, or select with Box or Lasso on the map, to list those texts here with their "
                   "nearest neighbours. Double-click the map, press Escape or use Clear selection to start over.")
        return
    texts = frame["text"].tolist()
    if 1 < len(chosen) < len(texts):
        words = selection_keywords_of(texts_digest(texts), tuple(chosen), texts)
        shown = words.replace("_", r"\_") or "(no word stands out)"  # TF-IDF words are \w+: only _ is markdown
        st.markdown(f"**Keywords of the selection:** {shown}")
    table = selection_of(frame, tuple(chosen[:LISTED]), vectors)
    st.dataframe(table, hide_index=True, column_config={"cosine": THREE_DECIMALS})
    st.caption(f"{len(chosen):,} selected" + (f"; the first {LISTED:,} are listed" if len(chosen) > LISTED else "")
               + ": each with its labels and its nearest other text in the full space. Keywords: the selection's "
                 "words weighed against the other texts' (class-based TF-IDF).")
    csv_download(table, "map-selection.csv", index=False, key="map_selection_csv")
    tag(frame[ROW_ID].to_numpy()[chosen].tolist())
    if len(chosen) > LISTED:
        csv_download(frame.iloc[chosen].assign(**{"#": chosen}), "map-selection-all.csv",
                     f"Download all {len(chosen):,} selected texts (CSV)", index=False, key="map_selection_all_csv")
    if len(chosen) == 1:
        near = point_neighbours(vectors, coords, frame["text"].tolist(), chosen[0])
        st.markdown(f"**Nearest to #{chosen[0]} in the full space**")
        st.dataframe(near, hide_index=True, column_config={"cosine": THREE_DECIMALS})
        st.caption("“Near on the map”: also among its nearest points on the map. Where it is false, the map "
                   "put a true neighbour far away.")


def cluster_table(texts: list[str], clusters: np.ndarray) -> pd.DataFrame:
    """The cluster legend: size, keywords, examples."""
    return keywords_of(texts_digest(texts), np.asarray(clusters).astype(str), texts)


def cluster_panel(table: pd.DataFrame) -> None:
    st.subheader("What each cluster is about")
    st.dataframe(table, hide_index=True)
    st.caption("Keywords are class-based TF-IDF: each cluster's texts joined into one document, its words weighed "
               "against the other clusters'. The map writes the first two at each cluster's centre, and finer "
               "clusters' as you zoom in."
               + (f" “{NOISE}”: the points HDBSCAN put in no cluster." if (table["cluster"] == NOISE).any() else ""))
    csv_download(table, "map-clusters.csv", index=False, key="map_clusters_csv")


def movers_panel(texts: list[str], overlap: Overlap, a_coords: np.ndarray, b_aligned: np.ndarray,
                 alignment: str) -> None:
    changed_panel(texts, overlap, movers(texts, overlap, a_coords, b_aligned), key="map_movers",
                  title="Texts whose neighbourhood changed most from A to B",
                  caption=f"The share of each text's {overlap.k} nearest neighbours (full space, cosine) that differ "
                          f"between A and B, how far it moved between the maps ({alignment}), and both neighbour "
                          "lists by text number"
                          + (f"; among a seeded sample of {len(overlap.rows):,} texts." if overlap.sampled else "."))


def export_panel(frame: pd.DataFrame, vectors: np.ndarray) -> None:
    with st.expander("Take these vectors elsewhere"):
        corpus = VectorCorpus(frame["text"].tolist(), np.asarray(vectors, dtype=np.float32),
                              frame.drop(columns=["text"]).reset_index(drop=True))
        one, two, three, four = st.columns(4)
        # Each file is written when its button is pressed, not on every rerun of the page.
        file_download(".npy (vectors)", lambda: to_npy(corpus), "vectors.npy", key="map_npy", where=one)
        file_download(".parquet (texts, vectors, labels)", lambda: to_parquet(corpus), "vectors.parquet",
                      key="map_parquet", where=two)
        file_download("Projector vectors.tsv", lambda: to_projector(corpus)[0], "vectors.tsv",
                      key="map_vectors_tsv", where=three)
        file_download("Projector metadata.tsv", lambda: to_projector(corpus)[1], "metadata.tsv",
                      key="map_metadata_tsv", where=four)
        st.caption("The Parquet file opens in Embedding Atlas (`embedding-atlas vectors.parquet --vector vector`) "
                   "and comes back through this page's vectors-file import; the two TSV files load in the "
                   "TensorFlow Embedding Projector and here.")


PLACEMENT = {
    "PCA": "PCA is a linear map, so the query is projected with the same axes as the corpus.",
    "t-SNE": "The map keeps t-SNE's positions, not the fitted t-SNE, so the star sits at the mean map position of the "
             "query's nearest texts in the full space: it lands near them by construction.",
}
PLACEMENT["UMAP"] = PLACEMENT["t-SNE"].replace("t-SNE", "UMAP")


def full_set_neighbours(dataset: Dataset, vector: np.ndarray, k: int, on_map: int) -> None:
    """The query's nearest texts among all of the dataset's rows, not only the sample on the map."""
    st.subheader(f"The query's nearest texts in all {len(dataset.vectors):,} of {dataset.info.name}")
    index = index_job(dataset)
    if waiting(index):
        return
    hits = index.search(vector, k)
    table = hits_ranking(dataset.info.name, hits, dataset.texts(hits.indices[0])).ranked(dataset.info.name)
    st.dataframe(table.drop(columns=["hit"]).rename(columns={"index": "row"}), hide_index=True,
                 column_config={"score": THREE_DECIMALS})
    sample = (f"the map shows a sample of {on_map:,}, so some of these texts may not be on it"
              if on_map < len(dataset.vectors) else "every row is on the map")
    st.caption(f"Answered by {index.caption}. 'row' numbers the dataset's rows; {sample}.")


def query_table(placed: PlacedQuery, method: str) -> None:
    st.subheader("The query's nearest texts")
    st.dataframe(placed.neighbours, hide_index=True,
                 column_config={"cosine": THREE_DECIMALS})
    st.caption("Nearest by cosine in the full space, best first. 'Rank on the map' counts from the point nearest "
               "to the star: where it is much larger than the full-space rank, the map misleads. " + PLACEMENT[method])
    csv_download(placed.neighbours, "map-query-neighbours.csv", index=False, key="map_query_csv")
