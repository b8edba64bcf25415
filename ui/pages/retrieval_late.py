"""Retrieval with a late-interaction model: each hit's strongest token matches as a column of the model's list, and
"why this hit?" as the query's tokens joined to the hit tokens they matched, with each one's share of the score."""

from __future__ import annotations

import streamlit as st

from core.analysis.late_interaction import Alignment, align
from core.analysis.late_search import query_tokens
from core.analysis.ranking import SCORE_NAMES, QueryRanking
from core.analysis.token_matches import hit_alignments, matches_line, matches_table
from core.encoding.multivector import TokenVectors
from core.encoding.token_matrix import TokenMatrix
from core.models.loading import LoadedModel
from core.plots.token_matches import token_matches_figure
from ui.components.downloads import csv_download


def special_tokens(model: LoadedModel) -> frozenset[str]:
    return frozenset(model.tokenizer.all_special_tokens)


def hit_matches(ranking: QueryRanking, query: TokenVectors, corpus: TokenMatrix, similarity: str,
                skip: frozenset[str] = frozenset()) -> dict[int, str]:
    """Corpus index -> the strongest token matches of that hit of the primary list."""
    hits = ranking.ranked(ranking.primary)["index"].tolist()
    return {hit: matches_line(alignment, skip=skip)
            for hit, alignment in zip(hits, hit_alignments(query, corpus, hits, similarity))}


def model_matches(ranking: QueryRanking, model: LoadedModel, query: str, corpus: TokenMatrix) -> dict[int, str]:
    return hit_matches(ranking, query_tokens(model, query), corpus, model.late_pipeline.similarity,
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
    st.dataframe(table, hide_index=True, key=f"{key}_table", column_config={
        name: st.column_config.NumberColumn(format="%.3f") for name in ("similarity", "share of score")})
    csv_download(table, "token_matches.csv", index=False, key=f"{key}_csv")


def late_why(model: LoadedModel, query: str, corpus: TokenMatrix, hit: int, *, key: str) -> None:
    matches_panel(align(query_tokens(model, query), corpus.text(hit), model.late_pipeline.similarity), key=key)
