"""Stored vectors on the map (a vectors file, a dataset) checked against the sidebar's model: do they still match it
(core.analysis.index_check)?"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.index_check import AGREE, MIN_SAMPLE, SAMPLE
from core.data.rows import ROW_ID
from core.evaluation.stored import store_refusal
from core.maps.space import documents
from core.models.loading import LoadedModel
from core.plots.index_check import index_check_figure
from core.settings import Settings
from ui.components.downloads import csv_download
from ui.state.persist import kept, kept_value, linked_value
from ui.work.background import index_check_job, waiting


def index_check_panel(model: LoadedModel, settings: Settings, frame: pd.DataFrame, vectors: np.ndarray) -> None:
    with st.expander(f"Check the stored vectors against {model.model_id}",
                     expanded=bool(kept_value("map_check_on", linked_value("map_check_on", False)))):
        st.caption("Were these vectors made by this model, with these settings? A seeded sample of their texts (one "
                   "row per distinct text) is embedded again and each stored vector set against the fresh one. Run it "
                   "after a model update, or before searching an index with a model that may not be the one that "
                   "wrote it.")
        refused = store_refusal(model)
        if refused is not None:
            st.info(refused)
            return
        sample = int(kept(st.number_input, "Texts embedded again", key="map_check_sample", url=True, default=SAMPLE,
                          min_value=MIN_SAMPLE, max_value=5_000, step=100))
        if not kept(st.toggle, "Check them", key="map_check_on", url=True, default=False,
                    help="Embeds the sample with the sidebar's model and settings (seconds for a small model)."):
            return
        check = index_check_job(model, frame["text"].tolist(), vectors, documents(model, settings), sample)
        if waiting(check):
            return
        record = check.record(model.model_id, frame[ROW_ID].tolist(), frame["text"].tolist())
        (st.success if record["verdict"] == "matches" else st.warning)(record["message"])
        columns = st.columns(4)
        columns[0].metric("Agree to 1e-3", f"{check.agree_share:.1%}",
                          help=f"Sampled rows whose stored vector is within {AGREE:g} of the fresh one in every "
                               f"dimension, of {check.sample:,}"
                               + (f" ({check.skipped:,} rows with a blank or repeated text were not sampled)."
                                  if check.skipped else "."))
        if record["median_cosine"] is not None:
            columns[1].metric("Median cosine", f"{record['median_cosine']:.4f}",
                              help="Between each stored vector and the model's fresh one.")
            columns[2].metric("5th percentile cosine", f"{record['p5_cosine']:.4f}")
        columns[3].metric(f"Neighbours' overlap@{check.k}", f"{check.overlap_at_10:.2f}",
                          help=f"Each sampled text's {check.k} nearest others by the stored vectors against by the "
                               "fresh ones: 1 means a search of the index finds what the model would find.")
        figure = index_check_figure(check)
        if figure is not None:
            st.plotly_chart(figure, key="map_check_figure")
        if record["rows_unlike"]:
            unlike = pd.DataFrame(record["rows_unlike"])
            st.markdown("**Rows unlike the model**, the least alike first:")
            st.dataframe(unlike, hide_index=True, key="map_check_rows")
            csv_download(unlike, "rows-unlike-the-model.csv", index=False, key="map_check_csv")
