"""Late-interaction search as the pages and the command line use it: a query encoded as encode_query encodes it,
ranked over a corpus's token vectors by the model's own MaxSim (exact), and what keeping those vectors takes."""

from __future__ import annotations

from core.analysis.late.maxsim import maxsim_top_k
from core.analysis.ranking import Listed
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import TokenVectors, encode_multivector
from core.models.loading import LoadedModel


def query_tokens(model: LoadedModel, query: str) -> TokenVectors:
    return encode_multivector(model, [query], role="query")[0]


def late_ranker(model: LoadedModel, query: str, corpus: TokenMatrix, depth: int) -> Listed:
    """The model's list of `query` over the corpus's token vectors: its best `depth` by the model's own MaxSim or
    MeanMaxSim, exact."""
    similarity = model.late_pipeline.similarity
    asked = TokenMatrix.of([query_tokens(model, query)], model.late_pipeline.width)
    return Listed(maxsim_top_k(asked, corpus, depth, similarity=similarity), similarity)


def stored_sentence(corpus: TokenMatrix) -> str:
    """How many token vectors the corpus holds and what they take as float32, in all and per text."""
    texts = max(len(corpus), 1)
    held = f"{corpus.nbytes / 1e6:,.1f} MB" if corpus.nbytes >= 1e6 else f"{corpus.nbytes / 1e3:,.1f} KB"
    return (f"{corpus.token_count:,} token vectors of {corpus.shape[1]} dimensions ({corpus.token_count / texts:.1f} "
            f"a text), {held} as float32 ({corpus.nbytes / texts / 1e3:,.1f} KB a text)")
