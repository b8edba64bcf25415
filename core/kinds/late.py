"""Late-interaction models (sentence-transformers' MultiVectorEncoder, ColBERT): one vector per kept token, a query
scoring a document by MaxSim (or MeanMaxSim) over them."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from core.data.late_parquet import LATE_SCHEMA, late_columns, late_parquet
from core.encoding.embedding_cache import ProgressBar
from core.encoding.encoder import Progress
from core.encoding.late.cache import cached_token_matrix, late_key, stored_token_matrix
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors, encode_multivector
from core.kinds.base import Applies, Kind, Scores, Why
from core.models.loading import LoadedModel
from core.settings import Role, Settings

if TYPE_CHECKING:
    from core.analysis.ranking import Listed
    from core.analysis.similarity import Metric


class Late(Kind):
    name = "late interaction"
    article = "a late-interaction model"
    why_refused = ", whose token vectors are its own encode_query and encode_document's"
    sentence = ("Late interaction: each text becomes one vector per kept token, not one vector; a query scores a "
                "document by MaxSim, the sum of each query token's best match among the document's tokens.")
    stored_as = "one float32 vector per kept token of each text"
    schema = LATE_SCHEMA
    unlike_dense = "it gives one vector per kept token, not one per text"
    suffixes = (".parquet",)
    files = ".parquet (text, tokens and token_vectors columns)"
    fixed_scale = False  # a MaxSim score sums over the query's tokens
    applies = Applies()

    token_vectors = True
    layered_note = ("it is probed on the mean of each text's token vectors as a document, its output: it keeps no "
                    "sentence vector at its layers.")
    sets_note = "its two sets are compared on the mean of each text's token vectors as a document."
    hit_floor = -float("inf")
    no_sentence_drift = ("A late-interaction model keeps no sentence vector: it scores a query against a document "
                         "token by token (MaxSim), so there is no pooled sentence to follow across layers. Token "
                         "drift, token alignment and attention read the transformer's token states, as for any "
                         "model; Similarity shows what MaxSim makes of them.")

    def score_name(self, model: LoadedModel) -> str:
        return model.late_pipeline.similarity

    def symmetric(self, model: LoadedModel) -> bool:
        return False  # queries and documents are encoded apart, and MaxSim reads the query's tokens

    def encode(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, batch_size: int = 32,
               progress: Progress | None = None) -> list[TokenVectors]:
        """As encode_query (role "query") or encode_document (any other role) gives them."""
        return encode_multivector(model, texts, role=settings.role, batch_size=batch_size, progress=progress)

    def cache_key(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> str:
        return late_key(model, texts, _side(settings))

    def stored_corpus(self, model: LoadedModel, texts: Sequence[str], settings: Settings) -> TokenMatrix | None:
        return stored_token_matrix(model, texts, _side(settings))

    def cached(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
               progress_bar: ProgressBar = nullcontext) -> TokenMatrix:
        """As encode_query (role "query") or encode_document (any other role) gives them, memory-mapped."""
        return cached_token_matrix(model, texts, _side(settings), progress_bar)

    def text_vectors(self, model: LoadedModel, texts: Sequence[str], settings: Settings,
                     progress_bar: ProgressBar = nullcontext) -> np.ndarray:
        """The mean of each text's token vectors (those `cached` keeps): texts whose tokens point alike land close,
        though MaxSim itself matches token by token; a text with no kept token is the origin."""
        from core.analysis.late.points import token_means

        return token_means(self.cached(model, texts, settings, progress_bar))

    def query_vector(self, model: LoadedModel, query: str, settings: Settings) -> np.ndarray:
        """Placed as a corpus's texts are: the mean of its token vectors as a document, whatever the role."""
        return self.text_vectors(model, [query], settings.with_(role="document"))

    def ranker(self, model: LoadedModel, query: str, corpus: TokenMatrix, settings: Settings, depth: int) -> Listed:
        """Its best `depth` by exact MaxSim (or MeanMaxSim) of the query's token vectors (encode_query's) against the
        corpus's."""
        from core.analysis.late.search import late_ranker

        return late_ranker(model, query, corpus, depth)

    def similarity(self, model: LoadedModel, texts: Sequence[str], settings: Settings, *, metric: Metric | None = None,
                   reorder: bool = False, progress: Progress | None = None) -> Scores:
        """Every text as a query (rows) against every text as a document (columns); a sum over tokens has no fixed
        scale."""
        from core.analysis.late.similarity import late_text_similarity

        self._own_metric(model, metric)
        found = late_text_similarity(model, texts, reorder=reorder, progress=progress)
        title = "MaxSim" if self.score_name(model) == "maxsim" else "MeanMaxSim"
        return Scores(found.matrix, found.order, "dot", title, "rows are queries, columns documents", found)

    def why(self, model: LoadedModel, a: str, b: str, settings: Settings, layer: int | None) -> Why:
        """The MaxSim alignment of `a` as a query for `b` as a document."""
        from core.analysis.late.alignment import alignment, scores
        from core.analysis.late.similarity import alignment_table
        from core.plots.late.tokens import alignment_figure

        query = encode_multivector(model, [a], role="query")[0]
        document = encode_multivector(model, [b], role="document")[0]
        explained = alignment(model, query, document)
        figure = alignment_figure(explained, query_name="query (A)", document_name="document (B)")
        return Why(float(scores(model, [query], [document])[0, 0]), figure, {"alignment": figure},
                   alignment_table(explained), explained)

    def corpus_work(self, model: LoadedModel, count: int, settings: Settings) -> str:
        return f"Encoding {count:,} texts as {_side(settings)}s with {model.model_id}"

    def columns(self, model: LoadedModel, encoded: list[TokenVectors]) -> list[pa.Array]:
        return late_columns(encoded, model.late_pipeline.width)

    def write(self, model: LoadedModel, texts: list[str], encoded: list[TokenVectors], output: Path) -> list[str]:
        """One row per text with its scored tokens and their vectors."""
        late_parquet(str(output), texts, encoded, model.late_pipeline.width)
        cut = sum(text.truncated for text in encoded)
        return [f"{cut} text(s) were longer than the model's length for their role and were cut at it."] if cut else []


def _side(settings: Settings) -> Role:
    """A late-interaction model reads a text as a query or as a document: any role but "query" is a document."""
    return "query" if settings.role == "query" else "document"
