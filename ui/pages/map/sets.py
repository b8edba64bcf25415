"""Two sets on the map: how far the new set has drifted from the reference (core.evaluation.set_drift), below the
map that colours each row by its set."""

from __future__ import annotations

import streamlit as st

from core.analysis.statistics import p_shown
from core.evaluation.set_drift import SetDrift, check_sets
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.plots.set_drift import auc_by_layer_figure, nearest_figure
from core.settings import Settings
from ui.components.downloads import csv_download
from ui.work.background import drift_job, layer_drift_job, waiting


def sets_panel(model: LoadedModel, settings: Settings, reference: list[str], current: list[str]) -> None:
    st.subheader("Has the new set drifted?")
    try:
        check_sets(reference, current)
    except ValueError as err:
        st.error(str(err))
        return
    report = drift_job(model, reference, current, settings)
    if waiting(report):
        return
    if report.note:
        st.caption(f"{model.model_id} is {kind_of(model).article}: {report.note}")
    _numbers(report)
    _clusters(report)
    _texts(report)
    _layers(model, settings, reference, current)


def _numbers(report: SetDrift) -> None:
    low, high = report.separability.interval()
    columns = st.columns(4)
    columns[0].metric("Domain classifier AUC", f"{report.separability.auc:.2f}",
                      help=f"The probe of what each layer knows, predicting each text's set: its cross-validated ROC "
                           f"AUC, 95% interval {low:.2f}–{high:.2f} over the folds. 0.5: the sets cannot be told "
                           "apart; 1: every text gives its set away.")
    columns[1].metric("MMD²", f"{report.mmd.mmd2:.4f}",
                      help="Maximum mean discrepancy, the unbiased estimator, with a Gaussian kernel whose width is "
                           "the median distance between texts whose vectors differ (equal ones left out: a text "
                           "repeated would make it 0); a linear kernel for a sparse model.")
    columns[2].metric("p-value", p_shown(report.mmd.p_value),
                      help=f"(1 + the seeded random relabellings of the texts, of {report.mmd.permutations:,}, whose "
                           f"MMD² is at least this one) / (1 + {report.mmd.permutations:,}): never below "
                           f"1/{report.mmd.permutations + 1:,}.")
    columns[3].metric("Centroids' cosine", f"{report.centroid_cosine:.3f}",
                      help="The cosine between the two sets' mean vectors.")
    sampled = (f" Each set was compared on a seeded sample of {len(report.reference):,} texts."
               if report.sampled else "")
    st.info(report.summary() + sampled)


def _clusters(report: SetDrift) -> None:
    st.markdown("**Where**: clusters of both sets together (k-means of their vectors), each set's share of its "
                "texts in each; Fisher's exact test per cluster, adjusted by Benjamini–Hochberg.")
    over, under = st.columns(2)
    for column, more, title in ((over, True, "The new set over-represents"),
                                (under, False, "The new set under-represents")):
        found = report.represented(more=more)
        lines = [f"- **{row.keywords or 'no keywords'}**: {row.current_share:.0%} of the new set, "
                 f"{row.reference_share:.0%} of the reference (p {row.p_adjusted:.2g})" for row in found.itertuples()]
        column.markdown(f"*{title}*\n\n" + ("\n".join(lines) if lines else
                                            "no cluster, at an adjusted p under 0.05."))
    csv_download(report.clusters, "drift-clusters.csv", "Download every cluster (CSV)", index=False,
                 key="map_sets_clusters_csv")


def _texts(report: SetDrift) -> None:
    st.markdown("**Which texts**: new texts far from every reference text are new topics; reference texts far from "
                "every new text are topics gone.")
    st.plotly_chart(nearest_figure(report.nearest), key="map_sets_nearest")
    new, gone = st.columns(2)
    for column, frame, title, name in ((new, report.new_topics(), "New texts farthest from every reference text",
                                        "drift-new-topics.csv"),
                                       (gone, report.gone(), "Reference texts farthest from every new text",
                                        "drift-gone.csv")):
        with column:
            st.markdown(f"**{title}** (cosine distance to the nearest text of the other set)")
            st.dataframe(frame, hide_index=True, column_config={"distance": st.column_config.NumberColumn(
                "distance", format="%.3f")}, key=f"map_sets_{name}")
            csv_download(frame, name, index=False, key=f"map_sets_{name}_csv")


def _layers(model: LoadedModel, settings: Settings, reference: list[str], current: list[str]) -> None:
    st.markdown("**By layer**: the same classifier at every layer (one encoding pass): where the two sets part.")
    if not kind_of(model).applies.layer:
        st.caption(f"{model.model_id} is {kind_of(model).article}: {kind_of(model).sets_note}")
        return
    scored = layer_drift_job(model, reference, current, settings)
    if waiting(scored):
        return
    st.plotly_chart(auc_by_layer_figure(scored), key="map_sets_layers")
