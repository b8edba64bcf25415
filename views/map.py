"""Embedding map: a corpus projected to 2-D, coloured, with the query in place and how far to trust it."""

from __future__ import annotations

import streamlit as st

from core.analysis.map.clusters import matching, query_in_space, spherize
from core.analysis.map.projection import MAX_POINTS
from core.data.corpus import CorpusError
from core.data.sampling import sample_indices
from core.encoding.embedding_cache import vectors_key
from core.encoding.prompts import with_role
from core.hashing import texts_digest
from core.jobs import Job
from core.models.catalog import LATE
from ui.components.compare import describe
from ui.components.sidebar import page
from ui.pages.map.corpus import map_corpus
from ui.pages.map.inputs import CLUSTERS, DENSITY, map_inputs, projection_inputs
from ui.pages.map.late import corpus_caption, late_points, token_map_view
from ui.pages.map.projection import colouring_of, projected
from ui.pages.map.tools import (
    cluster_panel,
    cluster_table,
    export_panel,
    full_set_neighbours,
    query_table,
)
from ui.pages.map.views import compare_view, query_on, single_view
from ui.state.persist import kept
from ui.work.background import corpus_job, job_status, late_documents_job
from ui.work.cache import labels_of, sparse_reduction_of, trust_of


def main() -> None:
    settings, model = page("Embedding map")
    late = model.kind == LATE
    if late and late_points() == "tokens":
        token_map_view(model)
        return
    st.caption(f"Every text of a corpus becomes a point; nearby points have similar embeddings. A 2-D map must "
               f"distort a {model.dimensions if model.kind in ('sparse', LATE) else model.hidden_size:,}-dimensional "
               "space, so the trust numbers below say how much of each point's neighbourhood survived.")
    corpus_col, method_col, colour_col = st.columns([1.1, 1.2, 1])
    with corpus_col:
        try:
            corpus = map_corpus()
        except CorpusError as err:
            st.error(str(err))
            corpus = None
    with method_col:
        params = projection_inputs()
        centred = kept(st.toggle, "Spherize: centre, then unit length", key="map_centre", url=True, default=False,
                       help="Removes the direction all texts share, so the map shows what sets them apart.")
    if corpus is None:
        return
    frame, raw = corpus.frame, corpus.vectors
    if len(frame) > MAX_POINTS:
        picked = sample_indices(len(frame), limit=MAX_POINTS, seed=params.seed)
        st.info(f"The corpus has {len(frame):,} texts; the map shows a random sample of {len(picked):,} "
                f"(seed {params.seed}).")
        frame, raw = frame.iloc[picked].reset_index(drop=True), None if raw is None else raw[picked]
    with colour_col:
        chosen = map_inputs(corpus, len(frame), model.dimensions if late else model.hidden_size)
    texts = frame["text"].tolist()
    documents, embedded = with_role(settings, model.pipeline, "document"), raw is None
    raw = (late_documents_job(model, texts) if late else corpus_job(model, texts, documents)) if embedded else raw
    if isinstance(raw, Job):
        job_status(raw)
        return
    reduction = None
    if late and embedded:
        st.caption(corpus_caption(model))
    if model.kind == "sparse" and embedded:  # a sparse model's own vectors; a file's or a dataset's are dense
        reduction = sparse_reduction_of(vectors_key(model, texts, documents), raw)
        raw = reduction.vectors
        st.caption(f"{model.model_id}'s sparse vectors ({model.dimensions:,} dimensions, almost all zero) are first "
                   f"reduced to {raw.shape[1]} by TruncatedSVD on their CSR matrix, keeping {reduction.kept:.0%} of "
                   "their variance; the map and its neighbours are measured in that space.")
    space = spherize(raw) if centred else raw
    projection = projected(space, params)
    if projection is None:
        return
    report = trust_of(space, projection.coords, params.seed)
    colouring = colouring_of(chosen, frame, corpus.colourings, space, projection.coords, params.seed, report.overlap)
    try:
        highlight = matching(texts, chosen.find, regex=chosen.regex) if chosen.find else None
    except ValueError as err:
        st.error(str(err))
        highlight = None
    if chosen.row is not None:
        query, vector = texts[chosen.row], space[chosen.row]
    else:
        query = chosen.query
        vector = query_in_space(model, query, with_role(settings, model.pipeline, "query"),
                                raw if centred else None, reduction) if query else None
    found = query_on(query, vector, texts, space, projection, chosen.top)
    clustered = chosen.colour in (CLUSTERS, DENSITY) and colouring.categorical
    labels = labels_of(texts_digest(texts), projection.coords, colouring.values if clustered else None, params.seed,
                       texts)
    if chosen.compare and reduction is not None:
        st.info("Compare mode maps two dense configurations side by side; the sidebar's model is sparse, so its map "
                "is drawn alone.")
    if chosen.compare and late:
        st.info("Compare mode maps two dense configurations side by side; the sidebar's model is a late-interaction "
                "one (its points are means of its token vectors), so its map is drawn alone.")
    if not (chosen.compare and reduction is None and not late and
            compare_view(texts, raw, space, projection, colouring, params, (settings, model), query, chosen.top,
                         centred, highlight)):  # A alone, also while B is still to download
        single_view(frame, space, projection, report, colouring, found[0] if found else None,
                    f"{projection.method} of " + (f"the vectors in {corpus.files}" if corpus.files else
                                                  describe(settings, model)),
                    highlight, labels)
    if clustered:
        cluster_panel(cluster_table(texts, colouring.values))
    if found is not None:
        query_table(found[1], projection.method)
        if corpus.dataset is not None:  # from the stored vectors, never the spherized ones
            full_set_neighbours(corpus.dataset, raw[chosen.row] if chosen.row is not None else
                                query_in_space(model, query, with_role(settings, model.pipeline, "query"), None),
                                chosen.top, len(frame))
    export_panel(frame, raw)


main()
