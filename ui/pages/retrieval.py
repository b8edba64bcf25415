"""The Retrieval page's parts: the rankers of a query (the model, dense, sparse or late interaction; TF-IDF, bag of
words, BM25; a hybrid of the model and a partner by reciprocal rank fusion), their lists drawn side by side, "why this
hit?", and a first stage's top N reranked by a cross-encoder."""

from __future__ import annotations

import streamlit as st

from core.analysis.lexical import BASELINES, Baseline, shared_terms
from core.analysis.ranking import SCORE_NAMES, AnyRanker, Hybrid, Listed, QueryRanking, Ranker, rank_query
from core.encoding.prompts import role_prompts
from core.jobs import Job
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.models.reranker import LoadedReranker
from core.plots.labels import shorten
from core.plots.rerank import moves_figure
from core.plots.retrieval import hits_figure
from core.settings import Settings, layer_used
from ui.components.columns import three_decimals
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.components.prompts import prompts_caption
from ui.components.rerank import reranker_choice
from ui.components.rerank_explain import rerank_explanation
from ui.kinds import views_of
from ui.state.persist import kept, texts_key
from ui.work.background import corpus_job, rerank_job, waiting
from ui.work.cache import available_ids, cached_model, lexical_index

NO_HYBRID = "no hybrid"
LATE_DEPTH = 200  # a late-interaction model's list: the page's largest Top k, deeper than a hybrid fuses
Rankers = dict[str, AnyRanker]


def full_texts(frame) -> None:
    """A list as a static table: texts wrap in full, a missing rank is left blank. Not a pandas Styler (three
    decimals, a dash): marshalling one cost 6 ms a table against 0.5 ms, with two tables every rerun."""
    st.table(frame, hide_index=True)


Sides = tuple[Settings, Settings]


def sides(model: LoadedModel, settings: Settings, *, prompts: bool) -> Sides:
    """(query, document) settings: each role's prompt (none without `prompts`) and, for a sparse model with a Router,
    its route."""
    query, document = role_prompts(model.pipeline, use=prompts)
    return settings.with_(prompt=query, role="query"), settings.with_(prompt=document, role="document")


def _model_ranker(model: LoadedModel, query: str, corpus: list[str], roles: Sides) -> Ranker | Listed | Job:
    """The model's ranker once the corpus is embedded, else the background job embedding it."""
    vectors = corpus_job(model, corpus, roles[1])
    if isinstance(vectors, Job):
        return vectors
    return kind_of(model).ranker(model, query, vectors, roles[0], LATE_DEPTH)


def hybrid_partner(model: LoadedModel) -> str:
    """The ranker fused with the model: BM25, or another model (the default: a dense one for a sparse model)."""
    options = [NO_HYBRID, "BM25", *(i for i in available_ids() if i != model.model_id)]
    partner = views_of(model).hybrid_partner
    default = partner if partner in options else "BM25"
    return kept(st.selectbox, "Hybrid: fuse the model's list with", key="ret_hybrid", url=True, default=default,
                options=options, must_be_option=True,
                help="Reciprocal rank fusion: each text scores 1 / (60 + its rank) in each list, summed; a text both "
                     "lists hold rises. Hybrid search pairs a dense model with a sparse one or BM25.")


def rankers(query: str, corpus: list[str], roles: Sides, model: LoadedModel, partner: str, *,
            prompts: bool) -> tuple[Rankers, list[Job]]:
    """The model's ranker and the hybrid once what they need is embedded (the background jobs meanwhile), and the
    baselines."""
    found: Rankers = {}
    jobs: list[Job] = []
    own = _model_ranker(model, query, corpus, roles)
    settings = roles[0]
    if isinstance(own, Job):
        jobs.append(own)
        st.caption("The lexical baselines answer at once; the model's ranking joins them when the corpus is "
                   "embedded.")
    else:
        found[model.model_id] = own
        st.caption(_embedded_caption(model, corpus, roles))
    for baseline, label in BASELINES.items():
        try:
            found[label] = Ranker.of_index(lexical_index(baseline, corpus), query)
        except ValueError as err:
            st.warning(f"{label}: {err}")
    if partner != NO_HYBRID and model.model_id in found:
        if partner not in found:
            ranker = _partner_ranker(partner, query, corpus, settings.device, prompts=prompts)
            if isinstance(ranker, Job):
                jobs.append(ranker)
            elif ranker is not None:
                found[partner] = ranker
        if partner in found:
            found[f"hybrid: {model.model_id} + {partner}"] = Hybrid(model.model_id, partner)
    return found, jobs


def _embedded_caption(model: LoadedModel, corpus: list[str], roles: Sides) -> str:
    own = views_of(model).corpus_caption
    caption = own(model, corpus) if own is not None else None
    if caption is not None:
        return caption
    settings = roles[0]
    return (f"{len(corpus):,} texts embedded with {model.model_id}"
            + (f" ({settings.pooling} pooling, layer {layer_used(settings.layer, model.num_layers)})"
               if kind_of(model).applies.layer else "")
            + "; kept on disk for next time. " + prompts_caption(model, (roles[0].prompt, roles[1].prompt)))


def _partner_ranker(partner: str, query: str, corpus: list[str], device: str, *,
                    prompts: bool) -> Ranker | Listed | Job | None:
    """The hybrid's partner model's ranker (or the job embedding the corpus for it); None, with why said, while it is
    still to download or when it cannot load."""
    if not ready_or_download(partner, key="ret_hybrid",
                             meanwhile=f"The hybrid with {partner} joins the lists once it is here."):
        return None
    try:
        partner_model = cached_model(partner, device)
    except Exception as err:  # any load failure must leave the page usable
        st.warning(f"Could not load {partner} for the hybrid: {err} Pick another partner.")
        return None
    return _model_ranker(partner_model, query, corpus,
                         sides(partner_model, Settings(model_id=partner, device=device), prompts=prompts))


def draw(ranking: QueryRanking, threshold: float, matches: dict[int, str] | None = None) -> None:
    """The lists; `matches` adds each of the model's hits' strongest token matches (a late-interaction model)."""
    primary = ranking.side_by_side()
    if matches is not None:
        primary.insert(primary.columns.get_loc("text") + 1, "token matches", primary["index"].map(matches).fillna(""))
    shown = primary[(primary["score"] >= threshold) & primary["hit"]].drop(columns=["index", "hit"])
    score = SCORE_NAMES[ranking.scores[ranking.primary]]
    if shown.empty:
        st.warning(f"No hit reaches the threshold {threshold:.2f}; lower it to see the best {ranking.k}.")
    else:
        st.plotly_chart(hits_figure(ranking, threshold=threshold), key="ret_hits")
    st.caption(f"Top {ranking.k} texts for the query by {ranking.primary}, best first; bar length is the {score}, "
               "colour says how many of the other lists (" + ", ".join(ranking.others) + ") also hold the text in "
               "their top k (grey: only this one; hover a bar to see which).")
    st.subheader(f"{ranking.primary}: the texts in full")
    full_texts(shown)
    st.caption(f"{ranking.primary}'s list with the rank each other ranker gave the same text (blank: not in its top "
               "k, or, for a word-based ranker, the text shares no word with the query).")
    # Only the open tab's list is built (a rerun each switch): the four tables were a third of a rerun's time
    tabs = st.tabs([f"{name} list" for name in ranking.others], key="ret_lists", on_change="rerun")
    for tab, other in zip(tabs, ranking.others):
        with tab:
            if not tab.open:
                continue
            if ranking.no_word_shared(other):
                st.info(f"{other}: the query shares no word with the corpus, so it finds nothing (all scores 0).")
                continue
            listed = ranking.side_by_side(other)
            full_texts(listed[listed["hit"]].drop(columns=["index", "hit"]))
    st.caption("Each list ranks by its own score (" + "; ".join(
        f"{name}: {SCORE_NAMES[score]}" for name, score in ranking.scores.items()) + "), so scores are not comparable "
               "across lists. Shared with the model's list: "
               + ", ".join(f"{name} {n} of {ranking.k}" for name, n in ranking.shared().items()) + ".")
    csv_download(ranking.table, "retrieval.csv", index=False)


def _words(corpus: list[str], query: str, row: int) -> None:
    baseline: Baseline = kept(st.selectbox, "Lexical baseline", key="ret_why_baseline", default="bm25",
                              options=list(BASELINES), format_func=BASELINES.get)
    st.markdown(f"**{BASELINES[baseline]}: the words they share**")
    try:
        shared = shared_terms(lexical_index(baseline, corpus), query, row)
    except ValueError as err:
        st.info(str(err))
        return
    if shared.empty:
        st.info(f"No word in common: {BASELINES[baseline]} scores this pair 0, whatever the model finds.")
        return
    st.dataframe(shared, hide_index=True, column_config=three_decimals(shared.columns[1:]))
    st.caption(f"Each shared word's weight in both texts; the products sum to {BASELINES[baseline]}'s score, "
               f"{shared['contribution'].sum():.3f}.")


def why(ranking: QueryRanking, query: str, corpus: list[str], settings: Settings, model: LoadedModel,
        roles: Sides) -> None:
    """"Why this hit?": the model's explanation of the query and one hit (a sparse model's: the terms they share; a
    late-interaction model's: which hit token each query token matched), with a baseline's shared words beside it."""
    st.subheader("Why this hit?")
    hits = ranking.ranked(ranking.primary)
    rank = st.selectbox("Hit", hits["rank"].tolist(), key=f"ret_why_{texts_key([query, *hits['text']])}",
                        format_func=lambda r: f"{r}. {shorten(hits.loc[r - 1, 'text'], 90)}")
    model_col, words_col = st.columns([3, 1])
    with model_col:
        views = views_of(model)
        if views.hit_why is not None:
            views.hit_why(model, query, corpus, int(hits.loc[rank - 1, "index"]), key="ret_why")
        else:
            views.explain(model, settings, query, hits.loc[rank - 1, "text"], key="ret_why", sides=roles)
    with words_col:
        _words(corpus, query, int(hits.loc[rank - 1, "index"]))


def rerank_section(found: Rankers, query: str, corpus: list[str], settings: Settings, model: LoadedModel) -> None:
    """"Rerank the top N with …": a first stage's top N read again by a cross-encoder, beside the first stage, with
    each hit's move and both scores."""
    st.subheader("Rerank")
    left, middle, right = st.columns([2, 2, 1])
    reranker = reranker_choice(key="ret_rerank", device=settings.device, where=left)
    names = list(found)
    first = kept(middle.selectbox, "First stage", key="ret_rerank_first", url=True, default=names[0], options=names,
                 must_be_option=True, help="The list whose top N the reranker reads again.")
    n = int(kept(right.number_input, "Top N", key="ret_rerank_n", url=True, default=10, min_value=2, max_value=100,
                 step=1, help="How many of the first stage's texts the reranker reads: deeper finds more, and costs "
                              "more."))
    why_score = kept(st.toggle, "Why this score? Explain a reranked hit", key="ret_rerank_why", url=True,
                     default=False, help="Each token's share of the reranker's score (integrated gradients), checked "
                                         "by deleting tokens, and what lifted one hit above another.")
    if reranker is None:
        return
    listed = rank_query(corpus, found, k=n, primary=first).ranked(first)
    listed = listed[listed["hit"]]
    reranked = rerank_job(reranker, query, listed["index"].tolist(), listed["score"].tolist(), corpus, first)
    if waiting(reranked):
        return
    before, after = st.columns(2)
    with before:
        st.markdown(f"**First stage: {first}**")
        full_texts(listed[["rank", "score", "text"]])
    with after:
        st.markdown(f"**Reranked by {reranker.model_id}**")
        shown = reranked.table[["rank", "move", "reranker score", "text"]]
        st.table(shown.style.format({"reranker score": "{:.3f}", "move": "{:+d}"}).hide(axis="index"))
    st.plotly_chart(moves_figure(reranked, reranker=reranker.model_id), key="ret_rerank_moves")
    st.caption(f"Why this order? The reranker reads the query and each of {first}'s top {len(listed)} texts "
               "together and scores the pair; the texts are then sorted by that score. Each line runs from a text's "
               "first-stage rank (left) to its reranked rank (right): green moved up, red down. A first stage "
               "compares two separate vectors; the reranker sees both texts at once, so it can weigh word order and "
               "negation, at the cost of one network pass per pair.")
    csv_download(reranked.table, "reranked.csv", index=False, key="ret_rerank_csv")
    if why_score:
        rerank_why(reranker, query, reranked.table)


def rerank_why(reranker: LoadedReranker, query: str, table) -> None:
    """A reranked hit explained, and why it scores above (or below) another hit."""
    st.markdown("**Why this score?**")
    ranks = table["rank"].tolist()
    texts = dict(zip(ranks, table["text"]))
    left, right = st.columns(2)
    hit = kept(left.selectbox, "Reranked hit", key="ret_rerank_why_hit", url=True, default=ranks[0], options=ranks,
               must_be_option=True, format_func=lambda r: f"{r}. {shorten(texts[r], 80)}")
    others = [0, *(r for r in ranks if r != hit)]
    below = next((r for r in (hit + 1, hit - 1) if r in others and r), 0)  # the hit just below, else just above
    versus = kept(right.selectbox, "Compared with", key="ret_rerank_why_versus", default=below, options=others,
                  must_be_option=True, follow_default=True,
                  format_func=lambda r: "no other hit" if r == 0 else f"{r}. {shorten(texts[r], 80)}",
                  help="Another hit of the same query: what lifted one above the other.")
    rerank_explanation(reranker, query, texts[hit], key="ret_rerank_why", versus=texts[versus] if versus else None,
                       names=(f"hit {hit}", f"hit {versus}"))
