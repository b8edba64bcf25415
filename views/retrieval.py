import pandas as pd
import streamlit as st

from core.analysis.search import top_k, unit_rows
from core.data.corpus import CorpusError, corpus_texts, lines
from core.data.stsb import stsb_corpus
from core.data.uploads import column
from core.encoding.encoder import encode_with
from core.evaluation.lexical import BASELINES
from core.plots.retrieval import hits_figure, overlap_label
from core.settings import layer_used
from ui.downloads import csv_download
from ui.models import lexical_index
from ui.persist import kept
from ui.progress import embed_corpus
from ui.sidebar import active
from ui.upload import uploaded_corpus

BUILTIN, UPLOAD, PASTE = "STS-B sentences (7,977)", "Upload a file", "Paste texts"
EXAMPLE_PASTE = "A man is playing a guitar.\nA woman is slicing an onion.\nThe stock market fell sharply today."

settings, model = active()
st.title("Retrieval")
st.markdown("Search a corpus with a query: the model ranks every text by cosine similarity to the query. "
            "TF-IDF and bag-of-words rank the same corpus by shared words, so you can see what the model "
            "finds that word overlap misses (and the reverse).")


def read_corpus(source: str) -> list[str] | None:
    """The chosen corpus, or None after telling the user what to fix."""
    try:
        if source == BUILTIN:
            return stsb_corpus()
        if source == PASTE:
            pasted = kept(st.text_area, "Texts, one a line", key="ret_paste", default=EXAMPLE_PASTE, height=160)
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


source = kept(st.radio, "Corpus", key="ret_source", default=BUILTIN, options=[BUILTIN, UPLOAD, PASTE],
              horizontal=True)
corpus = read_corpus(source)
if corpus is None:
    st.stop()
if len(corpus) == 1:
    st.info("The corpus holds a single text, so every query returns that one text.")

vectors = unit_rows(embed_corpus(model, corpus, settings))
st.caption(f"{len(corpus):,} texts embedded with {model.model_id} ({settings.pooling} pooling, "
           f"layer {layer_used(settings.layer, model.num_layers)}); kept on disk for next time.")

left, middle, right = st.columns([3, 1, 1])
query = kept(left.text_input, "Query", key="ret_query", default="A man is playing a guitar.")
k = int(kept(middle.number_input, "Top k", key="ret_k", default=10, min_value=1, max_value=200, step=1))
threshold = kept(right.slider, "Score threshold", key="ret_threshold", default=0.0, min_value=-1.0, max_value=1.0,
                 step=0.05, help="Model hits with a lower cosine similarity are hidden.")
if not query.strip():
    st.warning("Type a query to search the corpus.")
    st.stop()
if k > len(corpus):
    st.info(f"The corpus has only {len(corpus):,} texts, so all of them are ranked (k = {k} asked).")
    k = len(corpus)

query_vector = unit_rows(encode_with(model, [query.strip()], settings).vectors)
hits = top_k(query_vector, vectors, k)
lexical: dict[str, pd.DataFrame] = {}
for kind, label in BASELINES.items():
    try:
        index = lexical_index(kind, corpus)
    except ValueError as err:
        st.warning(f"{label}: {err}")
        continue
    found = top_k(index.query_rows([query.strip()]), index.corpus_rows, k)
    lexical[kind] = pd.DataFrame({"rank": range(1, k + 1), "score": found.scores[0], "index": found.indices[0],
                                  "text": [corpus[i] for i in found.indices[0]]})
    if not lexical[kind]["score"].gt(0).any():
        st.caption(f"{label}: the query shares no word with the corpus, so its list is arbitrary (all scores 0).")

model_ids = hits.indices[0]
in_tfidf = set(lexical["tfidf"]["index"]) if "tfidf" in lexical else set()
in_bow = set(lexical["bow"]["index"]) if "bow" in lexical else set()
results = pd.DataFrame({"rank": range(1, k + 1), "score": hits.scores[0],
                        "also in": [overlap_label(i in in_tfidf, i in in_bow) for i in model_ids],
                        "text": [corpus[i] for i in model_ids]})
shown = results[results["score"] >= threshold]
if shown.empty:
    st.warning(f"No hit reaches the threshold {threshold:.2f}; lower it to see the best {k}.")
else:
    st.plotly_chart(hits_figure(shown["text"].tolist(), shown["score"].tolist(), shown["also in"].tolist(),
                                threshold=threshold if threshold > 0 else None),
                    width="stretch")
st.caption(f"Top {k} texts for the query, best first; bar length is the cosine similarity, colour says whether "
           "TF-IDF or bag of words also put the text in their top k (grey: only the model found it).")

columns = st.columns(3)
with columns[0]:
    st.subheader(model.model_id)
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_config={"score": st.column_config.NumberColumn(format="%.3f")})
for column_area, kind in zip(columns[1:], BASELINES):
    with column_area:
        st.subheader(BASELINES[kind])
        if kind in lexical:
            table = lexical[kind].assign(**{"in model list": lexical[kind]["index"].isin(model_ids)})
            st.dataframe(table[["rank", "score", "in model list", "text"]], hide_index=True, width="stretch",
                         column_config={"score": st.column_config.NumberColumn(format="%.3f")})
overlap = {label: int(lexical[kind]["index"].isin(model_ids).sum()) for kind, label in BASELINES.items()
           if kind in lexical}
st.caption("Each list ranks by cosine similarity in its own space (baseline scores are not comparable to the "
           "model's). Shared with the model's list: "
           + ", ".join(f"{label} {n} of {k}" for label, n in overlap.items()) + ".")
download = results.copy()
for kind, label in BASELINES.items():
    if kind in lexical:
        rank_of = dict(zip(lexical[kind]["index"], lexical[kind]["rank"]))
        download[f"{label} rank"] = [rank_of.get(i) for i in model_ids]
csv_download(download, "retrieval.csv", index=False)
