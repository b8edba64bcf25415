"""A retrieval task from the user's files: query/relevant pairs, and the corpus to search (the pairs' own
relevant texts, the STS-B sentences, or an uploaded corpus)."""

from __future__ import annotations

import streamlit as st

from core.data.corpus import CorpusError, corpus_texts
from core.data.pairs import PAIR_FILE_TYPES
from core.data.stsb import Split, stsb_corpus
from core.data.uploads import column, query_pairs, text_columns
from core.evaluation.retrieval import RetrievalTask, build_task
from ui.components.upload import read_table, uploaded_corpus
from ui.state.persist import kept
from ui.work.cache import paraphrase_task_of

PARAPHRASE, OWN = "STS-B paraphrase task", "Your query/relevant pairs"
OWN_RELEVANT, OWN_STSB, OWN_UPLOAD = "the relevant texts of the file", "STS-B sentences", "an uploaded corpus"


def chosen_task() -> tuple[RetrievalTask | None, Split | None]:
    """The built-in paraphrase task of a split (and that split), or the task of the user's files (None for the
    split); None for the task until the files are complete. Raises CorpusError for a file that cannot be read."""
    source = kept(st.radio, "Task", key="ev_task", url=True, default=PARAPHRASE, options=[PARAPHRASE, OWN],
                  horizontal=True)
    if source == OWN:
        return uploaded_task(), None
    split = kept(st.radio, "Split", key="ev_split", url=True, default="dev", options=["dev", "test"], horizontal=True)
    task = paraphrase_task_of(split)
    st.caption(f"{len(task.queries)} queries (sentence 2 of STS-B {split} pairs scored 4 or more) against "
               f"{len(task.corpus):,} sentence-1 texts of all splits; a query's own text never counts as a hit.")
    return task, split


def usable_task() -> tuple[RetrievalTask, Split | None] | None:
    """`chosen_task`, or None with what stops it said on the page (a file that cannot be read, no query with a
    relevant text) or the upload hint shown."""
    try:
        task, split = chosen_task()
    except (CorpusError, ValueError) as err:
        st.error(str(err))
        return None
    if task is not None and not task.queries:
        st.error("No query has a relevant text; check the chosen columns.")
        return None
    return None if task is None else (task, split)


def uploaded_task() -> RetrievalTask | None:
    """The task of an uploaded query/relevant file (and its corpus); None, with a hint, until it is complete.
    Raises CorpusError for a file that cannot be read."""
    pairs_file = st.file_uploader("Query/relevant pairs (.csv or .jsonl, one pair a row)", type=list(PAIR_FILE_TYPES),
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
