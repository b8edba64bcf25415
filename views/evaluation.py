import hashlib

import pandas as pd
import streamlit as st

from core.analysis.search import Matrix
from core.data.corpus import CorpusError, corpus_texts
from core.data.stsb import stsb_corpus
from core.data.stsb import DataUnavailable
from core.data.uploads import column, query_pairs, text_columns
from core.evaluation.lexical import BASELINES
from core.evaluation.metrics import parse_ks
from core.evaluation.retrieval import RetrievalTask, TaskResult, build_task, evaluate_task, paraphrase_task
from core.evaluation.sts import by_genre, correlation, layer_sweep, sts_frame
from core.models.loading import LoadedModel
from core.plots.evaluation import rank_buckets, rank_figure, recall_curves, sts_scatter, sweep_figure
from core.settings import POOLINGS, layer_used
from ui.downloads import csv_download
from ui.models import available_ids, cached_model, lexical_index
from ui.persist import kept
from ui.progress import embed_corpus, progress_bar
from ui.sidebar import active
from ui.upload import read_table, uploaded_corpus

RETRIEVAL, STS = "Retrieval (Recall@k)", "STS correlation"
PARAPHRASE, OWN = "STS-B paraphrase task", "Your query/relevant pairs"
OWN_RELEVANT, OWN_STSB, OWN_UPLOAD = "the relevant texts of the file", "STS-B sentences", "an uploaded corpus"
MAX_CONFIGURATIONS = 12

settings, model = active()
st.title("Evaluation")
st.markdown("Score a model, pooling and layer on real benchmark data. **Retrieval**: for each query, does the "
            "model rank its paraphrase near the top of the corpus? **STS**: does cosine similarity follow the "
            "similarity scores people gave to sentence pairs?")


@st.cache_data(show_spinner="Building the paraphrase task…", max_entries=2)
def cached_paraphrase_task(split: str) -> RetrievalTask:
    return paraphrase_task(split)


def task_key(task: RetrievalTask) -> str:
    """A digest of all a task holds, so equal tasks (from any file or rerun) share their scores."""
    content = repr((task.queries, task.corpus, [sorted(docs) for docs in task.relevant], task.missing,
                    [sorted(docs) for docs in task.exclude]))
    return hashlib.blake2b(content.encode(), digest_size=20).hexdigest()


@st.cache_data(show_spinner=False, max_entries=64)
def scored(task_id: str, ks: tuple[int, ...], vectors_id: tuple, _task: RetrievalTask, _queries: Matrix,
           _corpus: Matrix) -> TaskResult:
    """The task's scores for one configuration, whose vectors `vectors_id` names; a display-only rerun
    (another diagnostics choice, the failures filter) reuses them."""
    return evaluate_task(_task, _queries, _corpus, ks=ks)


def own_task() -> RetrievalTask | None:
    pairs_file = st.file_uploader("Query/relevant pairs (.csv or .jsonl, one pair a row)", type=["csv", "jsonl"],
                                  key="ev_pairs_file")
    if pairs_file is None:
        st.info("Upload a file with two columns: a query and one text relevant to it (repeat a query for "
                "several relevant texts).")
        return None
    table = read_table(pairs_file)
    names = text_columns(table)
    left, right, corpus_col = st.columns(3)
    query_col = left.selectbox("Query column", names, key="ev_query_col")
    relevant_col = right.selectbox("Relevant column", names, index=min(1, len(names) - 1), key="ev_relevant_col")
    pairs = query_pairs(table, query_col, relevant_col)
    choice = kept(corpus_col.selectbox, "Corpus", key="ev_own_corpus", default=OWN_RELEVANT,
                  options=[OWN_RELEVANT, OWN_STSB, OWN_UPLOAD])
    if choice == OWN_RELEVANT:
        corpus = corpus_texts([doc for docs in pairs.values() for doc in docs])
    elif choice == OWN_STSB:
        corpus = stsb_corpus()
    else:
        uploaded = uploaded_corpus(file_key="ev_corpus_file", column_key="ev_corpus_col",
                                   column_label="Corpus text column",
                                   hint="Upload the corpus to search: .txt (one text a line), .csv or .jsonl.")
        if uploaded is None:
            return None
        corpus_table, text_col = uploaded
        corpus = corpus_texts(column(corpus_table, text_col))
    return build_task(pairs_file.name, pairs, corpus)


def configurations() -> tuple[list[tuple[str, LoadedModel, str, int | None]], list[str]]:
    """(label, model, pooling, layer) for every chosen combination that exists, and the chosen baselines."""
    left, middle, right, far = st.columns(4)
    model_ids = kept(left.multiselect, "Models", key="ev_models", default=[settings.model_id],
                     options=sorted(set(available_ids()) | {settings.model_id}))
    poolings = kept(middle.multiselect, "Poolings", key="ev_poolings", default=[settings.pooling], options=POOLINGS)
    layers = kept(right.multiselect, "Layers", key="ev_layers", default=["last"], options=["last", *range(13)],
                  help="0 is the embedding layer; a layer a model lacks is skipped.")
    baselines = kept(far.multiselect, "Baselines", key="ev_baselines", default=list(BASELINES), options=list(BASELINES),
         format_func=BASELINES.get)
    chosen = []
    for model_id in model_ids:
        try:
            loaded = cached_model(model_id, settings.device)
        except Exception as err:  # a model that fails to load must not take the page down
            st.warning(f"Skipped {model_id}: {err}")
            continue
        for pooling in poolings:
            for layer in layers:
                if layer != "last" and layer > loaded.num_layers:
                    continue
                name = f"{model_id} · {pooling} · layer {'last' if layer == 'last' else layer}"
                chosen.append((name, loaded, pooling, None if layer == "last" else int(layer)))
    if len(chosen) > MAX_CONFIGURATIONS:
        st.warning(f"{len(chosen)} model configurations chosen; only the first {MAX_CONFIGURATIONS} are evaluated.")
    return chosen[:MAX_CONFIGURATIONS], baselines


def evaluate_all(task: RetrievalTask, ks: list[int]) -> dict[str, TaskResult]:
    results: dict[str, TaskResult] = {}
    chosen, baselines = configurations()
    task_id = task_key(task)
    for name, loaded, pooling, layer in chosen:
        options = settings.with_(model_id=loaded.model_id, pooling=pooling, layer=layer)
        corpus = embed_corpus(loaded, task.corpus, options)
        queries = embed_corpus(loaded, task.queries, options)
        results[name] = scored(task_id, tuple(ks), (loaded.fingerprint, options), task, queries, corpus)
    for kind in baselines:
        try:
            index = lexical_index(kind, task.corpus)
        except ValueError as err:
            st.warning(f"{BASELINES[kind]}: {err}")
            continue
        results[BASELINES[kind]] = scored(task_id, tuple(ks), (kind,), task, index.query_rows(task.queries),
                                          index.corpus_rows)
    return results


def retrieval_section() -> None:
    left, right = st.columns([2, 1])
    source = kept(left.radio, "Task", key="ev_task", default=PARAPHRASE, options=[PARAPHRASE, OWN], horizontal=True)
    ks_text = kept(right.text_input, "k values", key="ev_ks", default="1, 5, 10, 20, 50")
    try:
        ks = parse_ks(ks_text)
        if source == PARAPHRASE:
            split = kept(st.radio, "Split", key="ev_split", default="dev", options=["dev", "test"], horizontal=True)
            task = cached_paraphrase_task(split)
            st.caption(f"{len(task.queries)} queries (sentence 2 of STS-B {split} pairs scored 4 or more) against "
                       f"{len(task.corpus):,} sentence-1 texts of all splits; a query's own text never counts as a hit.")
        else:
            task = own_task()
    except (CorpusError, ValueError) as err:
        st.error(str(err))
        return
    if task is None:
        return
    if not task.queries:
        st.error("No query has a relevant text; check the chosen columns.")
        return
    if task.queries_with_missing:
        st.warning(f"{len(task.queries_with_missing)} query(ies) have relevant texts that are not in the corpus; "
                   "those texts count as misses (see the 'not in corpus' column below).")
    if max(ks) > len(task.corpus):
        st.info(f"k = {max(ks)} is larger than the corpus ({len(task.corpus):,} texts): at that k every text is "
                "retrieved.")
    results = evaluate_all(task, ks)
    if not results:
        st.info("Choose at least one model or baseline.")
        return
    table = pd.DataFrame([{"configuration": name, **r.metrics} for name, r in results.items()])
    curves = table.melt(id_vars="configuration", value_vars=[f"recall@{k}" for k in ks], var_name="k",
                        value_name="recall").assign(k=lambda f: f["k"].str.removeprefix("recall@").astype(int))
    st.plotly_chart(recall_curves(curves), width="stretch")
    st.caption("Recall@k: the share of each query's relevant texts found in its top k, averaged over queries; "
               "higher and further left is better. Lexical baselines show what shared words alone achieve.")
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.3f") for c in table.columns[1:]})
    csv_download(table, "retrieval-metrics.csv", index=False)

    st.subheader("Per-query diagnostics")
    left, right = st.columns([2, 1])
    name = left.selectbox("Configuration", list(results), key="ev_diag_config")
    failures = kept(right.checkbox, "Only failures (relevant text not first)", key="ev_failures", default=False)
    per_query = results[name].per_query
    st.plotly_chart(rank_figure(rank_buckets(per_query["first relevant rank"])), width="stretch")
    st.caption("How many queries found their best relevant text at rank 1, in the top 5, top 10 and so on; "
               "'not in corpus': none of its relevant texts is in the corpus.")
    if failures:
        per_query = per_query[per_query["first relevant rank"].fillna(0).astype(int) != 1]
    st.dataframe(per_query, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in ("relevant score", "top wrong score", "margin")})
    st.caption("Margin: the relevant text's cosine minus the best wrong text's; below zero, a wrong text won.")
    csv_download(per_query, "retrieval-per-query.csv", index=False)


def sts_section() -> None:
    split = kept(st.radio, "Split", key="ev_sts_split", default="dev", options=["dev", "test"], horizontal=True)
    layer_text = layer_used(settings.layer, model.num_layers)
    with progress_bar(f"Embedding the STS-B {split} sentences") as progress:
        frame = sts_frame(model, split, pooling=settings.pooling, layer=settings.layer,
                          max_length=settings.max_length, progress=progress)
    scores = correlation(frame)
    a, b, c = st.columns(3)
    a.metric("Spearman", f"{scores['spearman']:.4f}")
    b.metric("Pearson", f"{scores['pearson']:.4f}")
    c.metric("Pairs", f"{scores['pairs']:,}")
    st.caption(f"{model.model_id}, {settings.pooling} pooling, layer {layer_text}: rank (Spearman) and linear "
               "(Pearson) correlation between cosine similarity and the gold scores; 1 would be perfect agreement.")
    genres = by_genre(frame)
    st.dataframe(genres, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.4f") for c in ("spearman", "pearson")})
    csv_download(genres, f"sts-{split}-by-genre.csv", index=False)
    st.plotly_chart(sts_scatter(frame), width="stretch")
    st.caption("Each dot is a sentence pair: its gold score (people's judgement, 0–5) against the model's cosine. "
               "A tight rising band means the model agrees with people.")
    csv_download(frame, f"sts-{split}-pairs.csv", index=False)

    st.subheader("Layer sweep")
    poolings = kept(st.multiselect, "Poolings to sweep", key="ev_sweep_poolings", default=[settings.pooling],
                    options=POOLINGS, help="Each added pooling takes one pass over the sentences (cached after).")
    if not poolings:
        st.info("Choose at least one pooling to sweep.")
        return
    with progress_bar("Embedding for the layer sweep") as progress:
        sweep = layer_sweep(model, split, poolings, max_length=settings.max_length, progress=progress)
    st.plotly_chart(sweep_figure(sweep), width="stretch")
    st.caption("Spearman correlation at every layer, one curve per pooling: where in the network sentence "
               "similarity emerges (layer 0 is the word-embedding layer).")
    csv_download(sweep, f"sts-{split}-layer-sweep.csv", index=False)


section = kept(st.radio, "Benchmark", key="ev_section", default=RETRIEVAL, options=[RETRIEVAL, STS],
               horizontal=True, label_visibility="collapsed")
try:
    if section == RETRIEVAL:
        retrieval_section()
    else:
        sts_section()
except DataUnavailable as err:
    st.error(str(err))
