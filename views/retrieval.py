"""Retrieval: a query ranked over a corpus by the model, and by TF-IDF and bag of words beside it."""

from __future__ import annotations

import streamlit as st

from core.analysis.ranking import QueryRanking, Ranker, rank_query
from core.data.corpus import CorpusError, corpus_texts, lines
from core.data.stsb import stsb_corpus
from core.data.uploads import column
from core.encoding.encoder import encode_with
from core.encoding.prompts import role_prompts
from core.evaluation.lexical import BASELINES, shared_terms
from core.jobs import Job
from core.plots.labels import shorten
from core.plots.retrieval import hits_figure
from core.settings import layer_used
from ui.components.downloads import csv_download
from ui.components.explain import explanation_panel
from ui.components.prompts import prompts_caption, without_prompts
from ui.components.sidebar import page
from ui.components.upload import uploaded_corpus
from ui.pages.retrieval_dataset import dataset_search
from ui.state.persist import kept, texts_key
from ui.work.background import corpus_job, job_status
from ui.work.cache import lexical_index, listed_datasets_now

BUILTIN, UPLOAD, PASTE = "STS-B sentences (7,977)", "Upload a file", "Paste texts"
EXAMPLE_PASTE = "A man is playing a guitar.\nA woman is slicing an onion.\nThe stock market fell sharply today."


def full_texts(frame):
    """A list as a static table: texts wrap in full, scores show three decimals, a missing rank shows as —."""
    return frame.style.format({"score": "{:.3f}"}, na_rep="—").hide(axis="index")


def read_corpus(source: str) -> list[str] | None:
    """The chosen corpus, or None after telling the user what to fix."""
    try:
        if source == BUILTIN:
            return stsb_corpus()
        if source == PASTE:
            pasted = kept(st.text_area, "Texts, one a line", key="ret_paste", url=True, default=EXAMPLE_PASTE,
                          height=160)
            return corpus_texts(lines(pasted))
        uploaded = uploaded_corpus(file_key="ret_upload", column_key="ret_column",
                                   help=".txt: one text a line; .csv / .jsonl: pick the text column.")
        if uploaded is None:
            return None
        table, name = uploaded
        return corpus_texts(column(table, name))
    except CorpusError as err:
        st.error(str(err))
        return None


def rankers(query: str, corpus: list[str], settings, model) -> tuple[dict[str, Ranker], Job | None]:
    """The model's ranker once the corpus is embedded (else the background job embedding it) and the baselines."""
    prompts = role_prompts(model.pipeline, use=not without_prompts(model, key="ret_no_prompts"))
    vectors = corpus_job(model, corpus, settings.with_(prompt=prompts[1]))
    found: dict[str, Ranker] = {}
    if isinstance(vectors, Job):
        st.caption("TF-IDF and bag of words answer at once; the model's ranking joins them when the corpus is "
                   "embedded.")
    else:
        st.caption(f"{len(corpus):,} texts embedded with {model.model_id} ({settings.pooling} pooling, "
                   f"layer {layer_used(settings.layer, model.num_layers)}); kept on disk for next time. "
                   + prompts_caption(model, prompts))
        found[model.model_id] = Ranker.dense(encode_with(model, [query], settings.with_(prompt=prompts[0])).vectors,
                                             vectors)
    for kind, label in BASELINES.items():
        try:
            found[label] = Ranker.of_index(lexical_index(kind, corpus), query)
        except ValueError as err:
            st.warning(f"{label}: {err}")
    return found, vectors if isinstance(vectors, Job) else None


def draw(ranking: QueryRanking, threshold: float) -> None:
    primary = ranking.side_by_side()
    shown = primary[primary["score"] >= threshold].drop(columns=["index", "hit"])
    if shown.empty:
        st.warning(f"No hit reaches the threshold {threshold:.2f}; lower it to see the best {ranking.k}.")
    else:
        st.plotly_chart(hits_figure(ranking, threshold=threshold), key="ret_hits")
    st.caption(f"Top {ranking.k} texts for the query by {ranking.primary}, best first; bar length is the cosine "
               f"similarity, colour says whether {' or '.join(ranking.others)} also put the text in their top k "
               f"(grey: only {ranking.primary} found it).")
    st.subheader(f"{ranking.primary}: the texts in full")
    st.table(full_texts(shown))
    st.caption(f"{ranking.primary}'s list with the rank each other ranker gave the same text (—: not in its top k, "
               "or, for a baseline, the text shares no word with the query).")
    for tab, other in zip(st.tabs([f"{name} list" for name in ranking.others]), ranking.others):
        with tab:
            if ranking.no_word_shared(other):
                st.info(f"{other}: the query shares no word with the corpus, so it finds nothing (all scores 0).")
                continue
            listed = ranking.side_by_side(other)
            st.table(full_texts(listed[listed["hit"]].drop(columns=["index", "hit"])))
    st.caption("Each list ranks by cosine similarity in its own space (baseline scores are not comparable to the "
               "model's). Shared with the model's list: "
               + ", ".join(f"{name} {n} of {ranking.k}" for name, n in ranking.shared().items()) + ".")
    csv_download(ranking.table, "retrieval.csv", index=False)


def why(ranking: QueryRanking, query: str, corpus: list[str], settings, model) -> None:
    """"Why this hit?": the model's explanation of the query and one hit, with TF-IDF's shared words beside it."""
    st.subheader("Why this hit?")
    hits = ranking.ranked(ranking.primary)
    rank = st.selectbox("Hit", hits["rank"].tolist(), key=f"ret_why_{texts_key([query, *hits['text']])}",
                        format_func=lambda r: f"{r}. {shorten(hits.loc[r - 1, 'text'], 90)}")
    text = hits.loc[rank - 1, "text"]
    model_col, words_col = st.columns([3, 1])
    with model_col:
        explanation_panel(model, settings, query, text, key="ret_why")
    with words_col:
        st.markdown("**TF-IDF: the words they share**")
        try:
            shared = shared_terms(lexical_index("tfidf", corpus), query, text)
        except ValueError as err:
            st.info(str(err))
            return
        if shared.empty:
            st.info("No word in common: TF-IDF scores this pair 0, whatever the model finds.")
        else:
            st.dataframe(shared, hide_index=True, column_config={
                c: st.column_config.NumberColumn(format="%.3f") for c in shared.columns[1:]})
            st.caption(f"Each shared word's weight in both texts; the products sum to TF-IDF's cosine, "
                       f"{shared['contribution'].sum():.3f}.")


def main() -> None:
    settings, model = page("Retrieval")
    st.markdown("Search a corpus with a query: the model ranks every text by cosine similarity to the query. "
                "TF-IDF and bag-of-words rank the same corpus by shared words, so you can see what the model "
                "finds that word overlap misses (and the reverse).")
    datasets, problems = listed_datasets_now()
    named = {f"Dataset: {info.name}": info for info in datasets}
    source = kept(st.radio, "Corpus", key="ret_source", url=True, default=BUILTIN, must_be_option=True,
                  options=[BUILTIN, UPLOAD, PASTE, *named], horizontal=True,
                  format_func=lambda option: f"Dataset: {named[option].label}" if option in named else option)
    for problem in problems:
        st.warning(problem)
    left, middle, right = st.columns([3, 1, 1])  # drawn before the corpus, so they never vanish and reset
    query = kept(left.text_input, "Query", key="ret_query", url=True, default="A man is playing a guitar.").strip()
    k = int(kept(middle.number_input, "Top k", key="ret_k", url=True, default=10, min_value=1, max_value=200, step=1))
    threshold = kept(right.slider, "Score threshold", key="ret_threshold", url=True, default=0.0, min_value=-1.0,
                     max_value=1.0, step=0.05, help="Model hits with a lower cosine similarity are hidden.")
    if source in named:
        dataset_search(named[source], query, k, threshold)
        return
    corpus = read_corpus(source)
    if corpus is None:
        return
    if len(corpus) == 1:
        st.info("The corpus holds a single text, so every query returns that one text.")
    if not query:
        st.warning("Type a query to search the corpus.")
        return
    if k > len(corpus):
        st.info(f"The corpus has only {len(corpus):,} texts, so all of them are ranked (k = {k} asked).")
    found, job = rankers(query, corpus, settings, model)
    if job is not None:
        job_status(job)
    if not found:
        return
    ranking = rank_query(corpus, found, k=k, primary=model.model_id if job is None else next(iter(found)))
    draw(ranking, threshold)
    if job is None:
        why(ranking, query, corpus, settings, model)


main()
