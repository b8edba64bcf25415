"""Retrieval: a query ranked over a corpus by the model, by TF-IDF, bag of words and BM25 beside it, and by a hybrid."""

from __future__ import annotations

import streamlit as st

from core.analysis.ranking import rank_query
from core.data.corpus import CorpusError, corpus_texts, lines
from core.data.stsb import stsb_corpus
from core.data.uploads import column
from core.kinds import kind_of
from ui.components.prompts import without_prompts
from ui.components.sidebar import page
from ui.components.upload import uploaded_corpus
from ui.kinds import views_of
from ui.pages.retrieval import draw, hybrid_partner, rankers, rerank_section, sides, why
from ui.pages.retrieval_dataset import dataset_search
from ui.state.persist import kept
from ui.work.background import job_status
from ui.work.cache import listed_datasets_now

BUILTIN, UPLOAD, PASTE = "STS-B sentences (7,977)", "Upload a file", "Paste texts"
EXAMPLE_PASTE = "A man is playing a guitar.\nA woman is slicing an onion.\nThe stock market fell sharply today."


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


def main() -> None:
    settings, model = page("Retrieval")
    st.markdown("Search a corpus with a query: the model ranks every text by its similarity to the query (a dense "
                "model by the cosine, a sparse one by its own score over shared terms, a late-interaction one by "
                "MaxSim over its token vectors). TF-IDF, bag of words and "
                "BM25 rank the same corpus by shared words, so you can see what the model finds that word overlap "
                "misses (and the reverse); a hybrid fuses the model's list with another's.")
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
    kind = kind_of(model)
    if not kind.fixed_scale:  # no threshold means one thing on every query
        threshold = kind.hit_floor
        right.caption(views_of(model).hits_rule)
    else:
        threshold = kept(right.slider, "Score threshold", key="ret_threshold", url=True, default=0.0, min_value=-1.0,
                         max_value=1.0, step=0.05, help="Model hits with a lower cosine similarity are hidden.")
    if source in named:
        dataset_search(named[source], query, k, threshold, model, settings)
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
    prompts = not without_prompts(model, key="ret_no_prompts")  # a late-interaction model's are always its own
    roles = sides(model, settings, prompts=prompts)
    found, jobs = rankers(query, corpus, roles, model, hybrid_partner(model), prompts=prompts)
    for job in jobs:
        job_status(job)
    ranking = rank_query(corpus, found, k=k, primary=model.model_id if model.model_id in found else next(iter(found)))
    matches = views_of(model).matches
    draw(ranking, threshold, matches(ranking, model, query, corpus) if matches is not None else None)
    if model.model_id in found:
        why(ranking, query, corpus, settings, model, roles)
    rerank_section(found, query, corpus, settings, model)


main()
