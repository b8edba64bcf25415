"""Evaluation: model, pooling and layer scored on real benchmark data (paraphrase retrieval, STS-B)."""

from __future__ import annotations

import streamlit as st

from core.analysis.ranking import SCORE_NAMES, similarity_column
from core.data.stsb import DataUnavailable
from core.encoding.prompts import role_prompts
from core.evaluation.cutoffs import parse_ks
from core.evaluation.retrieval import TaskResult, metrics_table, recall_curves
from core.evaluation.sts import by_genre, correlation, layer_sweep, sts_frame
from core.kinds import kind_of
from core.plots.evaluation import rank_buckets, rank_figure, recall_figure, sts_scatter, sweep_figure
from core.settings import POOLINGS
from ui.components.columns import three_decimals
from ui.components.compare import describe
from ui.components.downloads import csv_download
from ui.components.prompts import prompts_caption, without_prompts
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.evaluation_rerank import rerank_section
from ui.pages.evaluation_retrieval import evaluate_all
from ui.pages.evaluation_tasks import usable_task
from ui.state.persist import kept
from ui.work.cache import cached_model
from ui.work.progress import progress_bar

RETRIEVAL, STS, RERANK, CHECKS = "Retrieval (Recall@k)", "STS correlation", "Rerank", "Model checks"
MAX_CONFIGURATIONS = 12
FOUR = st.column_config.NumberColumn(format="%.4f")


def retrieval_section(settings) -> None:
    chosen = usable_task()
    if chosen is None:
        return
    task = chosen[0]
    try:
        ks = parse_ks(kept(st.columns([1, 2])[0].text_input, "k values", key="ev_ks", url=True,
                           default="1, 5, 10, 20, 50"))
    except ValueError as err:
        st.error(str(err))
        return
    if task.queries_with_missing:
        st.warning(f"{len(task.queries_with_missing)} query(ies) have relevant texts that are not in the corpus; "
                   "those texts count as misses (see the 'not in corpus' column below).")
    if max(ks) > len(task.corpus):
        st.info(f"k = {max(ks)} is larger than the corpus ({len(task.corpus):,} texts): at that k every text is "
                "retrieved (by a hybrid, only the texts of the two top-100 lists it fuses).")
    model = cached_model(settings.model_id, settings.device)
    without = without_prompts(model, key="ev_no_prompts")
    st.caption(prompts_caption(model, role_prompts(model.pipeline, use=not without))
               + ("" if without else " Each model chosen below gets its own prompts."))
    results = evaluate_all(task, ks, settings, without)
    if not results:
        st.info("Choose at least one model or baseline.")
        return
    st.plotly_chart(recall_figure(recall_curves(results, ks)), key="ev_recall_chart")
    st.caption("Recall@k: the share of each query's relevant texts found in its top k, averaged over queries; "
               "higher and further left is better. Lexical baselines show what shared words alone achieve.")
    table = metrics_table(results)
    st.dataframe(table, hide_index=True, column_config=three_decimals(table.columns[1:]))
    csv_download(table, "retrieval-metrics.csv", index=False)
    diagnostics(results)


def diagnostics(results: dict[str, TaskResult]) -> None:
    st.subheader("Per-query diagnostics")
    left, right = st.columns([2, 1])
    name = kept(left.selectbox, "Configuration", key="ev_diag_config", url=True, default=next(iter(results)),
                options=list(results), must_be_option=True, follow_default=True)
    failures = kept(right.checkbox, "Only failures (relevant text not first)", key="ev_failures", url=True,
                    default=False)
    per_query = results[name].per_query
    st.plotly_chart(rank_figure(rank_buckets(per_query["first relevant rank"])), key="ev_rank_chart")
    st.caption("How many queries found their best relevant text at rank 1, in the top 5, top 10 and so on; "
               "'not in corpus': none of its relevant texts is in the corpus.")
    if failures:
        per_query = per_query[per_query["first relevant rank"].fillna(0).astype(int) != 1]
    st.dataframe(per_query, hide_index=True,
                 column_config=three_decimals("relevant score", "top wrong score", "margin"))
    st.caption("Margin: the relevant text's score minus the best wrong text's (in the configuration's own score: a "
               "cosine, a dot product, BM25, RRF); below zero, a wrong text won.")
    csv_download(per_query, "retrieval-per-query.csv", index=False)


def sts_section(settings, model) -> None:
    split = kept(st.radio, "Split", key="ev_sts_split", url=True, default="dev", options=["dev", "test"],
                 horizontal=True)
    kind = kind_of(model)
    with progress_bar(f"Embedding the STS-B {split} {views_of(model).sts_texts}") as progress:
        frame = sts_frame(model, split, pooling=settings.pooling, layer=settings.layer,
                          max_length=settings.max_length, progress=progress)
    scores, similarity = correlation(frame), similarity_column(frame)
    a, b, c = st.columns(3)
    a.metric("Spearman", f"{scores[f'spearman_{similarity}']:.4f}")
    b.metric("Pearson", f"{scores[f'pearson_{similarity}']:.4f}")
    c.metric("Pairs", f"{len(frame):,}")
    st.caption(describe(settings, model) + f": rank (Spearman) and linear (Pearson) correlation between the "
               f"{SCORE_NAMES[similarity]} and the gold scores; 1 would be perfect agreement."
               f"{views_of(model).sts_note}")
    genres = by_genre(frame)
    st.dataframe(genres, hide_index=True, column_config={"spearman": FOUR, "pearson": FOUR})
    csv_download(genres, f"sts-{split}-by-genre.csv", index=False)
    st.plotly_chart(sts_scatter(frame), key="ev_sts_scatter")
    st.caption(f"Each dot is a sentence pair: its gold score (people's judgement, 0–5) against the model's "
               f"{SCORE_NAMES[similarity]}. A tight rising band means the model agrees with people.")
    csv_download(frame, f"sts-{split}-pairs.csv", index=False)
    if not kind.applies.layer_sweep:
        st.info(views_of(model).not_shown["layer_sweep"])
        return
    sweep_section(settings, model, split)


def sweep_section(settings, model, split: str) -> None:
    st.subheader("Layer sweep")
    poolings = kept(st.multiselect, "Poolings to sweep", key="ev_sweep_poolings", url=True, default=[settings.pooling],
                    options=POOLINGS, help="Each added pooling takes one pass over the sentences (cached after).")
    if not poolings:
        st.info("Choose at least one pooling to sweep.")
        return
    with progress_bar("Embedding for the layer sweep") as progress:
        sweep = layer_sweep(model, split, poolings, max_length=settings.max_length, progress=progress)
    st.plotly_chart(sweep_figure(sweep), key="ev_sweep_chart")
    undefined = ", ".join(f"{row.pooling} at layer {row.layer}" for row in sweep[sweep["spearman"].isna()].itertuples())
    st.caption("Spearman correlation at every layer, one curve per pooling: where in the network sentence "
               "similarity emerges (layer 0 is the word-embedding layer)." + (
                   f" No point for {undefined}: every pair has the same cosine there (with CLS pooling, layer 0 is "
                   "the same [CLS] embedding for every text), so there is nothing to correlate." if undefined else ""))
    csv_download(sweep, f"sts-{split}-layer-sweep.csv", index=False)


def main() -> None:
    settings, model = page("Evaluation")
    st.markdown("Score a model, pooling and layer on real benchmark data. **Retrieval**: for each query, does the "
                "model rank its paraphrase near the top of the corpus? **STS**: does the model's similarity follow the "
                "similarity scores people gave to sentence pairs? **Rerank**: what a cross-encoder reading the top N "
                "again buys and costs. **Model checks**: what prompts, fewer dimensions, lower precision and a static "
                "model cost (for a late-interaction model: token pooling and query expansion).")
    section = kept(st.radio, "Benchmark", key="ev_section", url=True, default=RETRIEVAL,
                   options=[RETRIEVAL, STS, RERANK, CHECKS], horizontal=True, label_visibility="collapsed")
    try:
        if section == RETRIEVAL:
            retrieval_section(settings)
        elif section == STS:
            sts_section(settings, model)
        elif section == RERANK:
            rerank_section(settings, model)
        else:
            views_of(model).evaluation_checks(settings, model)
    except DataUnavailable as err:
        st.error(str(err))


main()
