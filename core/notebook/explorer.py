"""`Explorer`: the app's core in a Jupyter notebook. One configuration (a model and the sidebar's choices) embeds texts
as `python -m core embed` does and gives the figures and tables the pages draw, each computed by the same core
function the page calls (core.analysis, core.evaluation) and drawn by the same core.plots function. Nothing here
imports Streamlit, and nothing reads a page's state.

What differs by kind (dense, sparse, late interaction) is asked of the model's kind (core.kinds), as the pages ask it;
a reranker is refused when the Explorer is made, as `embed` refuses it.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import scipy.sparse as sp

from core.analysis.agreement import agreement, overlap_k
from core.analysis.layers import MAX_SENTENCES, Drift, Word, default_word, find_word
from core.analysis.map.projection import ProjectionParams
from core.analysis.ranking import rank_query
from core.analysis.similarity import Metric, limit_problems
from core.data.corpus import corpus_texts
from core.data.rows import ROW_ID
from core.data.stsb import stsb_corpus
from core.data.uploads import query_pairs
from core.data.vectors import VectorCorpus
from core.deployment import load_config
from core.encoding.encoder import Embeddings, checked_layer, encode_tokens
from core.encoding.prompts import resolve_prompt, role_prompts, with_role
from core.encoding.sparse import SparseEmbeddings
from core.evaluation.compared_models import dense_only
from core.evaluation.metrics import shown_name
from core.evaluation.probing import probe_texts, texts_direction
from core.evaluation.retrieval import build_task, evaluate_embeddings
from core.evaluation.stored import stored_hits
from core.kinds import Kind, Why, kind_of
from core.kinds.titles import configuration_title
from core.maps.build import model_map
from core.maps.checks import check_labels, map_method, map_texts
from core.models.catalog import DEFAULT_MODEL_ID
from core.models.loading import LoadedModel, load_model
from core.plots.heatmap import similarity_heatmap
from core.plots.labels import shorten
from core.plots.layers import layer_curves, pair_colour
from core.plots.probes import direction_figure, probe_figure
from core.settings import Settings

if TYPE_CHECKING:
    from core.notebook.map_widget import MapWidget

Texts: TypeAlias = Sequence[str] | str  # a single string is one text
Vectors: TypeAlias = np.ndarray | sp.csr_matrix | list[np.ndarray]
Record: TypeAlias = dict[str, float | int | None]

# each keyword of Explorer that a kind may refuse, and the command-line flag core.kinds names it by
FLAGS: dict[str, str] = {"pooling": "--pooling", "layer": "--layer", "normalize": "--normalize",
                         "max_length": "--max-length", "truncate_dim": "--truncate-dim"}


def refusal(model: LoadedModel, options: Mapping[str, Any]) -> str | None:
    """The kind's own sentence (core.kinds) for the keyword `options` that do not apply to the model, each named as
    it is typed here (`layer=2`, not `--layer`); None when all apply. None or False means not given, and
    pooling "default" is the model's own."""
    given = {FLAGS[name]: value if name == "pooling" or value is False else "given"  # layer 0 is given
             for name, value in options.items() if value is not None}
    said = kind_of(model).refused(model, given)
    if said is None:
        return None
    for name, value in options.items():
        flag = FLAGS[name]
        said = said.replace(f"{flag} {value}" if name == "pooling" else flag, f"{name}={value!r}")
    return said


def _listed(texts: Texts) -> list[str]:
    listed = [texts] if isinstance(texts, str) else list(texts)
    if not all(isinstance(text, str) for text in listed):
        raise TypeError("Give texts as strings: a list of them, or one string for one text.")
    return listed


def _page_texts(texts: Texts) -> list[str]:
    """The texts within the deployment's limits (explorer.toml), as a page cuts them; each limit passed is warned."""
    listed = _listed(texts)
    if not listed:
        raise ValueError("There are no texts: give at least two to compare.")
    kept, problems = limit_problems(listed, load_config())
    for problem in problems:
        warnings.warn(problem, stacklevel=3)
    return kept


def _arrays(encoded: Any) -> Vectors:
    """What a kind's `encode` gave, as `embed` writes it: a dense array, CSR rows, or one token matrix a text."""
    if isinstance(encoded, Embeddings):
        for notice in [*encoded.notices, *([encoded.truncation_notice] if encoded.truncation_notice else [])]:
            warnings.warn(notice, stacklevel=3)
        return encoded.vectors
    if isinstance(encoded, SparseEmbeddings):
        return encoded.matrix
    return [text.vectors for text in encoded]


class Explorer:
    """One configuration of a model, as the sidebar sets it: any catalog id, Hugging Face id or local folder the app
    loads, with `pooling` ("default": the model's own), `layer` (None: the last; 0: the embedding layer),
    `device` ("auto", "cpu", "cuda", "mps"), `max_length`, `normalize` and `truncate_dim` (Matryoshka).

    A model the app refuses raises at once with the app's one sentence: core.models.catalog.ModelUnavailable (an
    unknown id, a reranker, which scores pairs and embeds nothing) or ValueError (an unknown pooling, a layer the
    model lacks, an option that does not apply to the model's kind)."""

    def __init__(self, model: str = DEFAULT_MODEL_ID, *, pooling: str = "default", layer: int | None = None,
                 device: str = "auto", max_length: int | None = None, normalize: bool = False,
                 truncate_dim: int | None = None, revision: str | None = None) -> None:
        settings = Settings(model_id=model, pooling=pooling, layer=layer, normalize=normalize, max_length=max_length,
                            device=device, truncate_dim=truncate_dim)
        loaded = load_model(model, device, revision)
        kind = kind_of(loaded)
        said = refusal(loaded, {"pooling": pooling, "layer": layer, "normalize": normalize,
                                "max_length": max_length, "truncate_dim": truncate_dim})
        if said is not None:
            raise ValueError(said)
        if kind.applies.layer:
            checked_layer(loaded, layer)
        self.model: LoadedModel = loaded
        self.kind: Kind = kind
        self.settings: Settings = settings.with_(model_id=loaded.model_id)

    def __repr__(self) -> str:
        return f"Explorer({configuration_title(self.settings, self.model)!r})"

    def _text_settings(self) -> Settings:
        """The settings of a page's texts: the model's own prompt for a text, as the pages' prompt picker starts."""
        return self.settings.with_(prompt=resolve_prompt(self.model.pipeline, "text"))

    def _sides(self) -> tuple[Settings, Settings]:
        """(query, document) settings, each with the model's own prompt and role, as Retrieval encodes them."""
        query, document = role_prompts(self.model.pipeline)
        return self.settings.with_(prompt=query, role="query"), self.settings.with_(prompt=document, role="document")

    def embed(self, texts: Texts, *, role: Literal["document", "query"] = "document", batch_size: int = 32) -> Vectors:
        """The texts' vectors, equal to what `python -m core embed` writes for the same options: a dense model's
        float array (texts, dims); a sparse model's scipy CSR matrix (texts, vocabulary); a late-interaction model's
        list of (kept tokens, dims) arrays, one a text. `role` "document" (encode_document, the default) or "query"
        (encode_query) picks the model's prompt for it (and a sparse Router's route)."""
        if role not in ("document", "query"):
            raise ValueError(f"role is 'document' or 'query', not {role!r}.")
        settings = with_role(self.settings, self.model.pipeline, role)
        return _arrays(self.kind.encode(self.model, _listed(texts), settings, batch_size=batch_size))

    def similarity(self, texts: Texts, *, metric: Metric | None = None, reorder: bool = False,
                   fixed_range: bool = True) -> go.Figure:
        """The Similarity page's heatmap of the texts (same figure, title and colour scale). A dense model's
        `metric` is "cosine" (the default), "dot" or "euclidean"; a sparse or late-interaction model is measured by
        its own similarity (MaxSim: rows are queries, columns documents). `reorder` groups similar texts by
        hierarchical clustering; `fixed_range` keeps a cosine's colours on [-1, 1]."""
        texts = _page_texts(texts)
        settings = self._text_settings()
        found = self.kind.similarity(self.model, texts, settings, metric=metric, reorder=reorder)
        title = configuration_title(settings, self.model) + (f"<br><sup>{found.note}</sup>" if found.note else "")
        return similarity_heatmap(found.matrix, texts, metric=found.metric,
                                  fixed_range=fixed_range and found.metric == "cosine", order=found.order,
                                  value_name=found.value_name, title=title)

    def layers(self, texts: Texts, *, word: str | None = None,
               curves: Literal["token", "sentence"] = "token") -> go.Figure:
        """The Layers page's per-layer curves of 2 to 8 sentences: "token" drift (the page's first tab) follows
        `word` (by default the content word most sentences share) in each pair of sentences, with the band of
        random token pairs; "sentence" drift follows each pair's pooled sentence vectors."""
        if curves not in ("token", "sentence"):
            raise ValueError(f"curves is 'token' or 'sentence', not {curves!r}.")
        model = self.model
        if model.static:
            raise ValueError(f"{model.model_id} is a static model: it has no layers (its one layer is the token "
                             "vectors, each looked up alone), so nothing drifts across layers.")
        texts = _page_texts(texts)
        if len(texts) > MAX_SENTENCES:
            warnings.warn(f"The Layers page compares up to {MAX_SENTENCES} sentences; the first {MAX_SENTENCES} of "
                          f"the {len(texts)} are used.", stacklevel=2)
            texts = texts[:MAX_SENTENCES]
        if len(texts) < 2:
            raise ValueError(f"{curves.capitalize()} drift compares sentences: give at least two.")
        settings = self._text_settings()
        states = encode_tokens(model, texts, max_length=settings.max_length, prompt=settings.prompt)
        shared = word.strip() if word and word.strip() else default_word(states)
        chosen = [find_word(ts, shared) if shared else None for ts in states]
        if word and not any(chosen):
            raise ValueError(f"“{word.strip()}” is in none of the sentences; give a word they hold, or leave word out "
                             "for the one they share.")
        drift = self.kind.drift(model, states, chosen, pooling=settings.pooling, max_length=settings.max_length)
        if curves == "sentence":
            return self._sentence_curves(drift, texts, settings)
        return _token_curves(drift, chosen)

    def _sentence_curves(self, drift: Drift, texts: list[str], settings: Settings) -> go.Figure:
        if not self.kind.applies.one_vector_per_text:
            raise ValueError(self.kind.no_sentence_drift)
        pooling = self.kind.layer_vectors or f"{settings.pooling} pooling"
        hovers = [f"S{i + 1}: {shorten(texts[i], 60)} ↔ S{j + 1}: {shorten(texts[j], 60)}" for i, j in drift.pairs]
        return layer_curves(drift.sentence, drift.labels, hovers, [pair_colour(k) for k in range(len(hovers))],
                            y_title=f"cosine of pooled sentences ({pooling})")

    @staticmethod
    def open(uri: str, *, limit: int | None = None) -> VectorCorpus:
        """A vector store's rows (the stores extra, `make stores`): `lancedb://FOLDER/TABLE`, `chroma://…`,
        `qdrant://…` or `postgresql://…?table=T` (core.data.stores), at most `limit` of them. `.texts`, `.vectors` and
        `.metadata` (row_id and the store's other columns) are what `map` and `search` take as a corpus, and
        `probe(stored.texts, stored.metadata["COLUMN"])` probes a metadata column."""
        from core.data.stores.reading import read_store

        return read_store(uri, limit=limit)

    def search(self, query: str, corpus: Sequence[str] | VectorCorpus | None = None, *, k: int = 10) -> pd.DataFrame:
        """The model's top `k` texts of `corpus` (default: the 7,977 STS-B sentences) for `query`, as the Retrieval
        page ranks them: the query encoded as a query and the corpus as documents (each with the model's own prompt),
        scored by the cosine (dense), the model's own similarity (sparse: a text that shares no term is no hit and is
        left out) or MaxSim (late interaction). The corpus is cleaned as the page cleans it (trimmed; empty and
        repeated texts dropped) and its vectors kept on disk for next time. Columns: rank, text, score. A store's
        rows (`open`) are searched by their stored vectors as `python -m core search --input URI` searches them, with
        the row ids and metadata beside."""
        query = query.strip()
        if not query:
            raise ValueError("The query is empty; give a text.")
        if k < 1:
            raise ValueError(f"k must be 1 or more, not {k}.")
        if isinstance(corpus, VectorCorpus):
            return pd.DataFrame(stored_hits(self.model, query, corpus, self._sides()[0], k))
        texts = list(stsb_corpus()) if corpus is None else corpus_texts(_listed(corpus))
        as_query, as_document = self._sides()
        vectors = self.kind.cached(self.model, texts, as_document)
        ranker = self.kind.ranker(self.model, query, vectors, as_query, k)
        name = self.model.model_id
        listed = rank_query(texts, {name: ranker}, k=k, primary=name).ranked(name)
        return listed.loc[listed["hit"], ["rank", "text", "score"]].reset_index(drop=True)

    def recall(self, relevant: Mapping[str, str | Iterable[str]], corpus: Sequence[str] | None = None, *,
               k: int | Sequence[int] = (1, 5, 10)) -> dict[str, float]:
        """Recall@k of the queries of `relevant` (query -> its relevant text, or texts) over `corpus` (default: every
        relevant text), as the Evaluation page measures your pairs (core.evaluation, equal to sentence-transformers'
        InformationRetrievalEvaluator): queries and corpus encoded with the model's own query and document prompts;
        a relevant text missing from the corpus counts as a miss; a corpus text identical to its query is never
        ranked for it. Returns {"recall@1": …, "recall@5": …, "recall@10": …, "mrr@10": …, "ndcg@10": …}."""
        rows = [(query, text) for query, texts in relevant.items()
                for text in ([texts] if isinstance(texts, str) else texts)]
        if not rows:
            raise ValueError("Give at least one query with a relevant text.")
        pairs = query_pairs(pd.DataFrame(rows, columns=["query", "relevant"]), "query", "relevant")
        texts = corpus_texts([text for texts in pairs.values() for text in texts] if corpus is None
                             else _listed(corpus))
        ks = [k] if isinstance(k, int) else list(k)
        result = evaluate_embeddings(self.model, build_task("notebook", pairs, texts), self.settings, ks=ks)
        return {shown_name(key): value for key, value in result.metrics.items()}

    def why(self, a: str, b: str, *, layer: int | None = None, method: Literal["exact", "ig"] = "exact",
            steps: int = 32) -> Why:
        """Why `a` and `b` score what they score, as the Similarity page explains a pair: a dense model's exact split
        of the cosine over token pairs (at `layer`, by default the configuration's; a pooling without one, such as
        cls, raises core.analysis.explanation.NoExactSplit), or with `method="ig"` the page's integrated gradients
        (`steps` steps, from the middle layer) for any pooling; a sparse model's split over the terms both texts hold;
        a late-interaction model's MaxSim alignment of `a` as a query for `b` as a document. Shows as its figure; its
        numbers are in `table` and `result` (see Why)."""
        if layer is not None and not self.kind.applies.layer:
            raise ValueError(refusal(self.model, {"layer": layer}) or "layer= does not apply to this model.")
        if method not in ("exact", "ig"):
            raise ValueError(f"method is 'exact' or 'ig', not {method!r}.")
        if method == "exact":
            return self.kind.why(self.model, a, b, self._text_settings(), layer)
        return self.kind.attributed(self.model, a, b, self.settings, layer, steps)

    def compare(self, other: Explorer | str, texts: Texts, *, k: int | None = None) -> Record:
        """How far this configuration and `other` (another Explorer, or a model id loaded with this one's device)
        agree on the same texts, as `python -m core compare` measures them (core.analysis.agreement): linear CKA,
        neighbour overlap@k (k by default as the Similarity page's compare mode: 10, or fewer for a few texts), RSA
        (Spearman) and the Procrustes residual, over the vectors `embed` gives. Both must be dense. Returns
        {"cka": …, "neighbour_overlap@k": …, "rsa_spearman": …, "procrustes": …, "texts": n} (None where undefined)."""
        other = other if isinstance(other, Explorer) else Explorer(other, device=self.settings.device)
        for side in (self, other):
            dense_only(side.model)
        listed = _listed(texts)
        found = agreement(np.asarray(self.embed(listed)), np.asarray(other.embed(listed)),
                          k=overlap_k(len(listed)) if k is None else k)
        return dict(found.record())

    def probe(self, texts: Texts | VectorCorpus, labels: Sequence[object] | str, *,
              layers: Sequence[int] | None = None) -> Probed:
        """What each layer knows about `labels` (one per text; blank ones left out; at least 2 classes of at least 5
        different texts each; for rows `open` read from a store, the name of one of their metadata columns), as the
        page "What each layer knows" and `python -m core probe` measure it
        (core.evaluation.probing): one row per layer (accuracy with its 95% interval, macro-F1, the labels shuffled,
        the architecture untrained, the words' TF-IDF accuracy, the online codelength and compression). `.figure` is
        the page's figure; `.report` has the rest (`confusion(layer)`, `wrong(layer)`, `mislabels(layer)`,
        `direction(layer, a, b)`, `labels.unlabelled`)."""
        if isinstance(texts, VectorCorpus):  # a store's rows: their texts are embedded again at every layer
            if isinstance(labels, str):
                if labels not in texts.metadata.columns:
                    raise ValueError(f"The rows have no column {labels!r}; their columns are "
                                     f"{', '.join(map(str, texts.metadata.columns))}.")
                labels = texts.metadata[labels].tolist()
            texts = texts.texts
        elif isinstance(labels, str):
            raise TypeError("Give one label a text; a column's name is read from rows `open` returned.")
        report = probe_texts(self.model, _listed(texts), labels, self.settings, layers=layers)
        rows = Probed(report.frame())
        rows.report = report
        rows.figure = probe_figure(report.frame(), report.labels.majority,
                                   title=f"What each layer knows, {configuration_title(self.settings, self.model)}")
        return rows

    def direction(self, texts: Texts, labels: Sequence[object], a: str, b: str | None = None, *,
                  layer: int | None = None) -> pd.DataFrame:
        """Each text's score along the direction of the texts labelled `a` against those labelled `b` (None: every
        other text) at `layer` (by default the last), highest first: columns text, label, score. `.attrs` holds the
        groups' separation along it (Cohen's d, out of fold), the p-value against 100 random directions and the
        figure."""
        listed = _listed(texts)
        found = texts_direction(self.model, listed, labels, self.settings, a, b, layer=layer)
        names = [str(label) for label in labels]
        table = pd.DataFrame({"text": listed, "label": names, "score": found.scores})
        table = table.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)
        table.attrs = {"separation": found.separation, "p_value": found.p_value,
                       "figure": direction_figure(found.scores, names, listed, first=a, second=b or f"not {a}")}
        return table

    def map(self, texts: Texts | VectorCorpus, *, labels: Sequence[object] | None = None, method: str = "PCA",
            query: str | None = None, seed: int = 0, direction: str | tuple[str, str] | None = None) -> MapWidget:
        """The Map page's map of the texts as a notebook widget (core.notebook.map_widget.MapWidget, an anywidget;
        the notebook extra, `make notebook-extra`): embedded as documents, projected by `method` ("PCA", "t-SNE" or
        "UMAP", seeded by `seed`), coloured by `labels` (else by k-means clusters; a named Series, such as
        `df["genre"]`, names the legend), with `query` as a star and lines to its nearest texts (core.maps.build). Its
        `selection` is a DataFrame of the rows selected in the browser. With `direction`, one label (against every
        other text) or two (`(first, second)`: from the second to the first), each point is coloured by its score
        along the direction between their texts, as the Map page's "a direction between two labels" colours it.
        A store's rows (`open`) are mapped by their stored vectors, as `MapWidget.from_vectors` maps vectors."""
        from core.notebook.map_widget import MapWidget, noted  # anywidget, the notebook extra, only where it is used

        if isinstance(texts, VectorCorpus):
            if query is not None or direction is not None:
                raise ValueError("A store's rows are mapped by their stored vectors; query= and direction= need texts "
                                 "the model embeds: give the texts (stored.texts) instead.")
            return MapWidget.from_vectors(texts.vectors, texts.texts, labels=labels, method=method, seed=seed)

        listed = map_texts(_listed(texts))
        chosen = map_method(method)
        check_labels(labels, len(listed))
        named = labels.name if isinstance(labels, pd.Series) else None
        name = named if isinstance(named, str) and named not in ("text", ROW_ID) else "label"
        frame = pd.DataFrame({"text": listed, **({name: list(labels)} if labels is not None else {})})
        points = model_map(frame, self.model, self.settings, ProjectionParams(chosen, seed=seed),
                           label=None if labels is None else name, query=query)
        if direction is not None:
            points = replace(points, direction=(direction, None) if isinstance(direction, str) else direction)
        return MapWidget(noted(points))


class Probed(pd.DataFrame):
    """`Explorer.probe`'s rows, a DataFrame with the figure and the report beside them."""

    _metadata = ["figure", "report"]

    @property
    def _constructor(self) -> type[Probed]:
        return Probed


def _token_curves(drift: Drift, chosen: list[Word | None]) -> go.Figure:
    plotted = [k for k in range(len(drift.pairs)) if not np.isnan(drift.token[k]).any()]
    if not plotted:
        raise ValueError("No word is in two of the sentences: give word= one that at least two hold, or ask for "
                         "curves=\"sentence\".")
    hovers = []
    for i, j in (drift.pairs[k] for k in plotted):
        first, second = chosen[i], chosen[j]
        assert first is not None and second is not None  # a pair is plotted only where both have the word
        hovers.append(f"S{i + 1} “{first.text}” ↔ S{j + 1} “{second.text}”")
    return layer_curves(drift.token[plotted], [drift.labels[k] for k in plotted], hovers,
                        [pair_colour(k) for k in plotted], y_title="cosine of the chosen tokens", band=drift.band)
