"""Sparse models and BM25 against the libraries they come from: SPLADE-tiny's encoding against
SparseEncoder.encode_document, the corpus held as CSR against dense copies, sparse search over the STS-B corpus and over
100,000 texts against scipy's CSR product and bm25s, and BM25 against bm25s's retrieve."""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from bench.common import Row, interleaved_best, percentiles_ms
from core.data.stsb import stsb_corpus
from core.evaluation.retrieval import paraphrase_task

TEXTS = 2_000
SEARCH_TEXTS = 100_000


def bench_sparse(rows: list[Row]) -> None:
    from sentence_transformers import SparseEncoder

    from core.encoding.sparse import encode_sparse
    from core.models.loading import load_model
    from core.models.packages import splade_folder

    texts = list(stsb_corpus()[:TEXTS])
    model = load_model("splade-tiny", "cpu")
    reference = SparseEncoder(str(splade_folder()), device="cpu")
    encode_sparse(model, texts[:64])
    reference.encode_document(texts[:64])

    def ours() -> None:
        model.memo.clear()
        encode_sparse(model, texts)

    ours_time, their_time = interleaved_best(ours, lambda: reference.encode_document(texts, batch_size=32))
    rows.append(Row(f"SPLADE-tiny encodes {TEXTS:,} STS-B sentences (CSR rows, memoised per text)",
                    f"{TEXTS / ours_time:,.0f} texts/s",
                    f"SparseEncoder.encode_document, batch 32: {TEXTS / their_time:,.0f} texts/s",
                    f"{their_time / ours_time:.2f}× (goal: 1.0× or more)",
                    raw={"ours_s": ours_time, "sentence_transformers_s": their_time, "texts": TEXTS}))

    corpus = stsb_corpus()
    rows_csr = encode_sparse(model, corpus).matrix
    held = rows_csr.data.nbytes + rows_csr.indices.nbytes + rows_csr.indptr.nbytes
    minilm = len(corpus) * 384 * 4
    dense = rows_csr.shape[0] * rows_csr.shape[1] * 4
    rows.append(Row(f"The {len(corpus):,}-text STS-B corpus under SPLADE-tiny, held as CSR "
                    f"({rows_csr.nnz / rows_csr.shape[0]:.1f} active terms a text)", f"{held / 1e6:.1f} MB",
                    f"the same corpus dense under all-MiniLM-L6-v2 (384 float32): {minilm / 1e6:.1f} MB; SPLADE-tiny "
                    f"as a dense float32 matrix: {dense / 1e6:,.0f} MB",
                    f"{minilm / held:.1f}× smaller than MiniLM's, {dense / held:,.0f}× than dense",
                    raw={"csr_bytes": held, "minilm_bytes": minilm, "dense_bytes": dense, "nnz": int(rows_csr.nnz)}))

    queries = paraphrase_task("dev").queries[:100]
    query_rows = encode_sparse(model, queries, role="query").matrix
    bench_sparse_search(rows, query_rows, queries, rows_csr, corpus)
    rng = np.random.default_rng(0)
    pairs = rng.integers(0, len(corpus), size=(SEARCH_TEXTS, 2))
    joined = [f"{corpus[a]} {corpus[b]}" for a, b in pairs]
    bench_sparse_search(rows, query_rows, queries, rows_csr[pairs[:, 0]].maximum(rows_csr[pairs[:, 1]]).tocsr(),
                        joined, "two STS-B sentences joined, each row the elementwise max of theirs (SPLADE's max "
                        "pooling without the context across them)")
    bench_bm25(rows, corpus, paraphrase_task("dev").queries)


def bench_sparse_search(rows: list[Row], query_rows: sp.csr_matrix, queries: list[str], corpus_rows: sp.csr_matrix,
                        texts: list[str], made: str = "") -> None:
    """One query at a time, top 10 by the dot product over `corpus_rows`, against scipy's CSR product with numpy's
    partial sort, and against bm25s retrieving from the same texts (its queries tokenized beforehand, as ours are
    encoded)."""
    import bm25s
    from bm25s.tokenization import Tokenizer

    from core.analysis.search import postings, top_k

    def brute_force(i: int) -> np.ndarray:
        scores = (query_rows[i] @ corpus_rows.T).toarray().ravel()
        best = np.argpartition(-scores, 10)[:10]
        return best[np.argsort(-scores[best])]

    tokenizer = Tokenizer(stopwords="en")
    retriever = bm25s.BM25()
    retriever.index(tokenizer.tokenize(texts, return_as="ids", show_progress=False), show_progress=False)
    ids = tokenizer.tokenize(queries, update_vocab=False, return_as="ids", show_progress=False)
    started = time.perf_counter()
    postings(corpus_rows)
    built = time.perf_counter() - started
    p50, p95 = percentiles_ms(lambda i: top_k(query_rows[i], corpus_rows, 10), len(queries))
    s50, s95 = percentiles_ms(brute_force, len(queries))
    b50, b95 = percentiles_ms(lambda i: retriever.retrieve(ids[i:i + 1], k=10, show_progress=False), len(queries))
    where = f"{corpus_rows.shape[0]:,} texts as SPLADE-tiny CSR rows: {made}" if made else \
        f"the {corpus_rows.shape[0]:,} STS-B texts as SPLADE-tiny CSR rows"
    rows.append(Row(f"Top-10 of one query over {where} (dot product; postings built once, in {built * 1000:.0f} ms)",
                    f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                    f"scipy CSR product + argpartition: p50 {s50:.1f} ms, p95 {s95:.1f} ms; bm25s retrieve over the "
                    f"same texts: p50 {b50:.1f} ms, p95 {b95:.1f} ms",
                    f"{min(s50, b50) / p50:.2f}× the better one (p50; goal: 1.0× or more)",
                    raw={"rows": corpus_rows.shape[0], "postings_s": built, "ours_p50_ms": p50, "ours_p95_ms": p95,
                         "scipy_p50_ms": s50, "scipy_p95_ms": s95, "bm25s_p50_ms": b50, "bm25s_p95_ms": b95}))


def bench_bm25(rows: list[Row], corpus: list[str], queries: list[str]) -> None:
    import bm25s
    from bm25s.tokenization import Tokenizer

    from core.analysis.lexical import fit_baseline
    from core.analysis.search import top_k

    started = time.perf_counter()
    index = fit_baseline("bm25", corpus)
    ours_fit = time.perf_counter() - started
    tokenizer = Tokenizer(stopwords="en")
    retriever = bm25s.BM25()
    started = time.perf_counter()
    retriever.index(tokenizer.tokenize(corpus, return_as="ids", show_progress=False), show_progress=False)
    their_fit = time.perf_counter() - started

    def ours() -> object:
        return top_k(index.query_rows(queries), index.corpus_rows, 10)

    def theirs() -> object:
        ids = tokenizer.tokenize(queries, update_vocab=False, return_as="ids", show_progress=False)
        return retriever.retrieve(ids, k=10, show_progress=False)

    ours_time, their_time = interleaved_best(ours, theirs, 3)
    rows.append(Row(f"BM25: top 10 of the {len(queries)} STS-B dev queries over {len(corpus):,} texts (index built in "
                    f"{ours_fit:.2f} s, bm25s's {their_fit:.2f} s)", f"{ours_time * 1000:.0f} ms",
                    f"bm25s tokenize + retrieve: {their_time * 1000:.0f} ms", f"{their_time / ours_time:.2f}×",
                    raw={"ours_s": ours_time, "bm25s_s": their_time, "ours_fit_s": ours_fit, "bm25s_fit_s": their_fit}))
