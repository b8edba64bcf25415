"""Retrieval with a late-interaction model: each hit's strongest token matches as a column of the model's list,
"why this hit?" as the query's tokens joined to the hit tokens they matched, with each one's share of the score; and
a late-interaction dataset folder searched by exact MaxSim, or past its size by token-index candidates then exact
MaxSim."""

from __future__ import annotations

import streamlit as st

from core.analysis.late.alignment import Alignment, align
from core.analysis.late.matches import hit_alignments, matches_line, matches_table
from core.analysis.late.search import query_tokens, stored_sentence
from core.analysis.ranking import SCORE_NAMES, QueryRanking, hits_ranking
from core.analysis.search import Hits
from core.data.datasets import DatasetError, DatasetInfo, LateDataset
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.models.sources import availability
from core.plots.labels import shorten
from core.plots.late.matches import token_matches_figure
from core.plots.retrieval import hits_figure
from core.settings import Settings
from ui.components.columns import three_decimals
from ui.components.dataset_row import row_as_query
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.work.background import corpus_job, late_index_job, waiting
from ui.work.cache import cached_model, late_dataset_of


def special_tokens(model: LoadedModel) -> frozenset[str]:
    return frozenset(model.tokenizer.all_special_tokens)


def hit_matches(ranking: QueryRanking, query: TokenVectors, corpus: TokenMatrix, similarity: str,
                skip: frozenset[str] = frozenset()) -> dict[int, str]:
    """Corpus index -> the strongest token matches of that hit of the primary list."""
    hits = ranking.ranked(ranking.primary)["index"].tolist()
    return {hit: matches_line(alignment, skip=skip)
            for hit, alignment in zip(hits, hit_alignments(query, corpus, hits, similarity))}


def encoded_corpus(model: LoadedModel, corpus: list[str]) -> TokenMatrix | None:
    """The corpus's token vectors once the model's list has been made (read from the memo), else None."""
    matrix = corpus_job(model, corpus, Settings(model_id=model.model_id, role="document"))
    return matrix if isinstance(matrix, TokenMatrix) else None


def model_matches(ranking: QueryRanking, model: LoadedModel, query: str, corpus: list[str]) -> dict[int, str] | None:
    """The model's hits' strongest token matches, by corpus index (None while the corpus is being encoded)."""
    matrix = encoded_corpus(model, corpus) if ranking.primary == model.model_id else None
    if matrix is None:
        return None
    return hit_matches(ranking, query_tokens(model, query), matrix, model.late_pipeline.similarity,
                       special_tokens(model))


def matches_panel(alignment: Alignment, *, key: str) -> None:
    """The alignment of the query and one hit: lines between their tokens, the shares, and the table."""
    score = SCORE_NAMES.get(alignment.similarity, alignment.similarity)
    st.markdown(f"**Token matches: {score} {alignment.score:.3f}**")
    st.plotly_chart(token_matches_figure(alignment), key=f"{key}_figure")
    parts = [f"typed tokens {alignment.typed_share:.3f}"]
    if alignment.query.expansion.any():
        parts.append(f"query expansion {alignment.expansion_share:.3f}")
    if alignment.query.prompt.any():
        parts.append(f"prompt {alignment.prompt_share:.3f}")
    st.caption("Each query token (left) joined to the hit token it is most similar to (right): that similarity is "
               "its share of the score" + (", divided by the query's token count (MeanMaxSim)"
                                           if alignment.similarity == "meanmaxsim" else "")
               + "; a thicker, darker line adds more. The shares sum to the score: " + " + ".join(parts)
               + f" = {alignment.score:.3f}.")
    table = matches_table(alignment)
    st.dataframe(table, hide_index=True, key=f"{key}_table",
                 column_config=three_decimals("similarity", "share of score"))
    csv_download(table, "token_matches.csv", index=False, key=f"{key}_csv")


def late_corpus_caption(model: LoadedModel, corpus: list[str]) -> str | None:
    """Retrieval's sentence on the corpus once its token vectors are stored (None before)."""
    matrix = encoded_corpus(model, corpus)
    if matrix is None:
        return None
    return (f"{len(corpus):,} texts encoded as documents with {model.model_id}: {stored_sentence(matrix)}; kept on "
            "disk for next time. The query is encoded by the model's encode_query and scored against every text by its "
            f"{SCORE_NAMES[model.late_pipeline.similarity]}, exact.")


def late_why(model: LoadedModel, query: str, corpus: list[str], hit: int, *, key: str) -> None:
    matrix = encoded_corpus(model, corpus)
    if matrix is not None:
        matches_panel(align(query_tokens(model, query), matrix.text(hit), model.late_pipeline.similarity), key=key)


def _dataset_query(dataset: LateDataset, query: str) -> tuple[TokenVectors, str, frozenset[str]]:
    """The query's token vectors in the dataset's space (the dataset's model's encode_query, when this server has
    it), else one of the dataset's own texts as the query; the similarity to score by, and the tokens to leave out
    of a hit's line."""
    manifest = dataset.info.manifest
    if (manifest is not None and availability(manifest.settings.model_id).available
            and ready_or_download(manifest.settings.model_id, key="ret_dataset_model")):
        model = cached_model(manifest.settings.model_id, "auto")
        if kind_of(model).token_vectors:
            st.caption(f"The query is encoded as the dataset's documents were: {model.model_id}'s encode_query (the "
                       "sidebar's model is not used here).")
            return query_tokens(model, query), model.late_pipeline.similarity, special_tokens(model)
    whose = ("another machine's model" if manifest is None
             else f"{manifest.settings.model_id}, which this server lacks as a late-interaction model")
    st.info(f"This dataset was encoded with {whose}, so a typed query cannot be encoded into its token vectors: it "
            "is searched by its own texts, scored by MaxSim. Pick a row as the query.")
    row = row_as_query(len(dataset.corpus), lambda row: dataset.texts([row])[0])
    return dataset.corpus.text(row), "maxsim", frozenset()


def late_dataset_search(info: DatasetInfo, query: str, k: int) -> None:
    """The dataset's top k for the query by MaxSim, each hit's strongest token matches, and one hit's alignment."""
    try:
        dataset = late_dataset_of(info.source, info.version)
    except (DatasetError, OSError) as err:
        st.error(str(err))
        return
    asked, similarity, skip = _dataset_query(dataset, query)
    index = late_index_job(dataset, similarity)
    if waiting(index):
        return
    found = index.search(TokenMatrix.of([asked], dataset.corpus.shape[1]), k)
    keep = found.indices[0] >= 0
    hits = Hits(found.indices[:, keep], found.scores[:, keep])
    ranking = hits_ranking(info.name, hits, dataset.texts(hits.indices[0]), score=similarity)
    st.plotly_chart(hits_figure(ranking), key="ret_dataset_hits")
    st.caption(f"Top {ranking.k} of the {info.rows:,} texts of {info.name}, answered by {index.caption}. TF-IDF and "
               "bag of words are left out for datasets: they would hold every text's words in memory.")
    table = ranking.ranked(info.name).drop(columns=["hit"])
    lines = hit_matches(ranking, asked, dataset.corpus, similarity, skip)
    table.insert(table.columns.get_loc("text") + 1, "token matches", table["index"].map(lines).fillna(""))
    st.dataframe(table, hide_index=True, column_config=three_decimals("score"))
    csv_download(table, "retrieval.csv", index=False)
    if not len(table):
        return
    st.subheader("Why this hit?")
    rank = st.selectbox("Hit", table["rank"].tolist(), key="ret_dataset_why",
                        format_func=lambda r: f"{r}. {shorten(table.loc[r - 1, 'text'], 90)}")
    hit = int(table.loc[rank - 1, "index"])
    matches_panel(align(asked, dataset.corpus.text(hit), similarity), key="ret_dataset_why")
