"""Retrieval over a dataset the deployment lists (a folder or a store): the query embedded as the dataset was (when the
server has its model), by the sidebar's model for a dataset that names none, else one of the dataset's own texts as the
query; answered by the dataset's index, which is named."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.analysis.ranking import hits_ranking
from core.data.datasets import Dataset, DatasetError, DatasetInfo
from core.encoding.encoder import encode_with
from core.encoding.prompts import role_prompts
from core.evaluation.stored import stored_query
from core.models.loading import LoadedModel
from core.models.sources import availability
from core.plots.retrieval import hits_figure
from core.settings import Settings
from ui.components.columns import three_decimals
from ui.components.dataset_row import row_as_query
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.pages.retrieval_late import late_dataset_search
from ui.work.background import index_job, waiting
from ui.work.cache import cached_model, dataset_of


def dataset_query(dataset: Dataset, query: str, model: LoadedModel, settings: Settings) -> np.ndarray:
    """The query's vector in the dataset's space: the typed query with the dataset's model and settings (and the
    model's query prompt); for a dataset that names no model (a store), with the sidebar's `model` where it gives
    vectors as wide; else the vector of a text the user picks by row."""
    manifest = dataset.info.manifest
    if (manifest is not None and availability(manifest.settings.model_id).available
            and ready_or_download(manifest.settings.model_id, key="ret_dataset_model")):
        model = cached_model(manifest.settings.model_id, "auto")
        settings = manifest.settings.with_(prompt=role_prompts(model.pipeline)[0])
        prompted = " with the model's query prompt" if settings.prompt else ""
        st.caption(f"The query is embedded as the dataset was: {settings.model_id}, {settings.pooling} pooling"
                   f"{prompted} (the sidebar's model and settings are not used here).")
        return encode_with(model, [query], settings).vectors
    if manifest is None:  # a store, or a folder made elsewhere: the sidebar's model reads it where it can
        try:
            vector = stored_query(model, query, dataset.vectors.shape[1], settings)
        except ValueError as err:
            st.info(f"{err} Until then the dataset is searched by its own texts: pick a row as the query.")
        else:
            st.caption(f"The dataset does not say which model made its vectors: the query is embedded by the sidebar's "
                       f"{model.model_id}, as wide as they are. Whether that model made them is checked on the "
                       "Embedding map (“Check the stored vectors”).")
            return vector
    else:
        st.info(f"This dataset was embedded with {manifest.settings.model_id}, which this server lacks, so a typed "
                "query cannot be placed in its space: it is searched by its own texts. Pick a row as the query.")
    row = row_as_query(len(dataset.vectors), lambda row: dataset.texts([row])[0])
    return np.asarray(dataset.vectors[row:row + 1])


def dataset_search(info: DatasetInfo, query: str, k: int, threshold: float, model: LoadedModel,
                   settings: Settings) -> None:
    if info.late:
        late_dataset_search(info, query, k)
        return
    try:
        dataset = dataset_of(info.source, info.version)
    except (DatasetError, OSError) as err:
        st.error(str(err))
        return
    index = index_job(dataset)
    if waiting(index):
        return
    hits = index.search(dataset_query(dataset, query, model, settings), k)
    ranking = hits_ranking(info.name, hits, dataset.texts(hits.indices[0]))
    st.plotly_chart(hits_figure(ranking, threshold=threshold), key="ret_dataset_hits")
    st.caption(f"Top {ranking.k} of the {info.rows:,} texts of {info.name}, answered by {index.caption}. TF-IDF and "
               "bag of words are left out for datasets: they would hold every text's words in memory.")
    table = ranking.ranked(info.name).drop(columns=["hit"])
    st.dataframe(table, hide_index=True, column_config=three_decimals("score"))
    csv_download(table, "retrieval.csv", index=False)
