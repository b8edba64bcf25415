"""Evaluation figures: Recall@k against k per configuration, STS scatter, layer sweep, rank buckets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from core.analysis.ranking import SCORE_NAMES, similarity_column
from core.plots.labels import label

RANK_BUCKETS = ("1", "2–5", "6–10", "11–50", "51+", "not in corpus")


def recall_figure(frame: pd.DataFrame) -> go.Figure:
    """`frame` columns: configuration, k, recall; one line per configuration over a log-scaled k axis."""
    ks = sorted(frame["k"].unique())
    figure = px.line(frame, x="k", y="recall", color="configuration", markers=True, log_x=len(ks) > 1,
                     labels={"recall": "Recall@k", "k": "k (texts retrieved)"})
    figure.update_traces(hovertemplate="%{fullData.name}<br>Recall@%{x}: %{y:.3f}<extra></extra>")
    figure.update_layout(height=420, margin=dict(l=10, r=10, t=30, b=10), yaxis=dict(range=[0, 1.02]),
                         legend=dict(title=None, orientation="h", y=-0.18), xaxis=dict(tickvals=ks))
    return figure


def rank_buckets(ranks: pd.Series) -> pd.DataFrame:
    """How many queries found their first relevant text at rank 1, 2–5, … (NA: none in the corpus)."""
    values = ranks.astype("Float64")
    edges = [(1, 1), (2, 5), (6, 10), (11, 50), (51, np.inf)]
    counts = [int(((values >= lo) & (values <= hi)).sum()) for lo, hi in edges] + [int(values.isna().sum())]
    return pd.DataFrame({"first relevant rank": RANK_BUCKETS, "queries": counts})


def rank_figure(buckets: pd.DataFrame, title: str = "") -> go.Figure:
    figure = px.bar(buckets, x="first relevant rank", y="queries", text="queries")
    figure.update_traces(marker_color="#3b5bdb", textposition="outside", cliponaxis=False)
    figure.update_layout(title=title or None, height=300, margin=dict(l=10, r=10, t=40 if title else 20, b=10))
    return figure


def sts_scatter(frame: pd.DataFrame, title: str = "") -> go.Figure:
    """`frame` columns: gold, the similarity (`cosine`, or a sparse model's `dot`), genre, sentence 1, sentence 2
    (one point per pair)."""
    similarity = similarity_column(frame)
    hover = [f"{label(a, 90)}<br>{label(b, 90)}"
             for a, b in zip(frame["sentence 1"], frame["sentence 2"])]
    figure = px.scatter(frame.assign(pair=hover), x="gold", y=similarity, color="genre", opacity=0.55,
                        color_discrete_sequence=px.colors.qualitative.Set1, custom_data=["pair"],
                        labels={"gold": "gold score (0–5)", similarity: SCORE_NAMES[similarity]},
                        render_mode="webgl")
    figure.update_traces(marker_size=5, hovertemplate="%{customdata[0]}<br>gold %{x:.2f} · " + similarity
                                                      + " %{y:.3f}<extra>%{fullData.name}</extra>")
    figure.update_layout(title=title or None, height=430, margin=dict(l=10, r=10, t=40 if title else 20, b=10),
                         legend=dict(title=None))
    return figure


def sweep_figure(frame: pd.DataFrame) -> go.Figure:
    """`frame` columns: pooling, layer, spearman; one curve per pooling, layer 0 = embeddings."""
    figure = px.line(frame, x="layer", y="spearman", color="pooling", markers=True,
                     labels={"spearman": "Spearman (cosine vs gold)", "layer": "layer (0 = embeddings)"})
    figure.update_layout(height=380, margin=dict(l=10, r=10, t=20, b=10), legend=dict(title=None),
                         xaxis=dict(dtick=1))
    return figure


def dimension_figure(frame: pd.DataFrame, metrics: list[str]) -> go.Figure:
    """`frame`: one row per number of dimensions kept, a column per metric; one line per metric over log-scaled
    dimensions."""
    long = frame.melt(id_vars="dimensions", value_vars=metrics, var_name="metric", value_name="score")
    figure = px.line(long, x="dimensions", y="score", color="metric", markers=True, log_x=len(frame) > 1,
                     color_discrete_sequence=px.colors.qualitative.Set1,
                     labels={"dimensions": "dimensions kept (the first d)", "score": "score"})
    figure.update_traces(hovertemplate="%{fullData.name}<br>%{x} dimensions: %{y:.3f}<extra></extra>")
    figure.update_layout(height=400, margin=dict(l=10, r=10, t=20, b=10),
                         legend=dict(title=None, orientation="h", y=-0.2),
                         xaxis=dict(tickvals=list(frame["dimensions"])))
    return figure


def variant_figure(frame: pd.DataFrame, variant: str, metrics: list[str]) -> go.Figure:
    """`frame`: one row per variant (named in column `variant`), a column per metric; grouped bars per metric."""
    long = frame.melt(id_vars=variant, value_vars=metrics, var_name="metric", value_name="score")
    figure = px.bar(long, x="metric", y="score", color=variant, barmode="group", text_auto=".3f",
                    color_discrete_sequence=px.colors.qualitative.Set2)
    figure.update_traces(textposition="outside", cliponaxis=False,
                         hovertemplate="%{fullData.name}<br>%{x}: %{y:.4f}<extra></extra>")
    figure.update_layout(height=400, margin=dict(l=10, r=10, t=30, b=10), yaxis=dict(range=[0, 1.1]),
                         legend=dict(title=None, orientation="h", y=-0.15), xaxis_title=None)
    return figure


def pooling_figure(frame: pd.DataFrame, metrics: list[str]) -> go.Figure:
    """`frame`: one row per pool factor with its index bytes and a column per metric; each metric against the index
    size in MB (10^6 bytes), each point's factor under its size on the axis."""
    sized = frame.assign(megabytes=frame["index bytes"] / 1e6)
    long = sized.melt(id_vars=["pool factor", "megabytes"], value_vars=metrics, var_name="metric", value_name="score")
    figure = px.line(long, x="megabytes", y="score", color="metric", markers=True,
                     color_discrete_sequence=px.colors.qualitative.Set1,
                     labels={"megabytes": "index size (MB of float32 token vectors)", "score": "score"})
    figure.update_traces(hovertemplate="%{fullData.name}<br>%{x:.2f} MB: %{y:.3f}<extra></extra>")
    figure.update_layout(height=400, margin=dict(l=10, r=10, t=20, b=10),
                         legend=dict(title=None, orientation="h", y=-0.25),
                         xaxis=dict(tickvals=list(sized["megabytes"]),
                                    ticktext=[f"{mb:.1f}<br>pool factor {factor:g}"
                                              for mb, factor in zip(sized["megabytes"], sized["pool factor"])]))
    return figure
