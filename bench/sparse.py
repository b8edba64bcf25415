"""Sparse models and BM25 against the libraries they come from: SPLADE-tiny's encoding against
SparseEncoder.encode_document, the corpus held as CSR against a dense copy, sparse search against sentence-transformers'
own similarity, and BM25 against bm25s's retrieve."""

from __future__ import annotations

import time

import numpy as np

from bench.common import Row, best_of, percentiles_ms
from core.data.stsb import stsb_corpus
from core.evaluation.retrieval import paraphrase_task

TEXTS = 2_000


def bench_sparse(rows: list[Row]) -> None:
    import torch
    from sentence_transformers import SparseEncoder

    from core.analysis.search import top_k
    from core.encoding.sparse import encode_sparse
    from core.models.loading import load_model
    from core.models.packages import splade_folder

    texts = stsb_corpus()[:TEXTS]
    model = load_model("splade-tiny", "cpu")
    reference = SparseEncoder(str(splade_folder()), device="cpu")
    encode_sparse(model, texts[:64])
    reference.encode_document(texts[:64])

    def ours() -> None:
        model.memo.clear()
        encode_sparse(model, texts)

    ours_time = their_time = float("inf")
    for _ in range(2):  # interleaved repeats
        ours_time = min(ours_time, best_of(ours, 1))
        their_time = min(their_time, best_of(lambda: reference.encode_document(texts, batch_size=32), 1))
    rows.append(Row(f"SPLADE-tiny encodes {TEXTS:,} STS-B sentences (CSR rows, memoised per text)",
                    f"{TEXTS / ours_time:,.0f} texts/s",
                    f"SparseEncoder.encode_document, batch 32: {TEXTS / their_time:,.0f} texts/s",
                    f"{their_time / ours_time:.2f}× (goal: 1.0× or more)",
                    raw={"ours_s": ours_time, "sentence_transformers_s": their_time, "texts": TEXTS}))

    corpus = stsb_corpus()
    rows_csr = encode_sparse(model, corpus).matrix
    held = rows_csr.data.nbytes + rows_csr.indices.nbytes + rows_csr.indptr.nbytes
    dense = rows_csr.shape[0] * rows_csr.shape[1] * 4
    rows.append(Row(f"The {len(corpus):,}-text STS-B corpus under SPLADE-tiny, held as CSR "
                    f"({rows_csr.nnz / rows_csr.shape[0]:.1f} active terms a text)", f"{held / 1e6:.1f} MB",
                    f"as a dense float32 matrix: {dense / 1e6:,.0f} MB", f"{dense / held:,.0f}× smaller",
                    raw={"csr_bytes": held, "dense_bytes": dense, "nnz": int(rows_csr.nnz)}))

    queries = paraphrase_task("dev").queries[:100]
    query_rows = encode_sparse(model, queries, role="query").matrix
    coo = rows_csr.tocoo()
    corpus_tensor = torch.sparse_coo_tensor(np.vstack([coo.row, coo.col]), coo.data, rows_csr.shape).coalesce()
    query_tensors = [reference.encode_query(q, convert_to_sparse_tensor=True) for q in queries]
    p50, p95 = percentiles_ms(lambda i: top_k(query_rows[i], rows_csr, 10), len(queries))
    r50, r95 = percentiles_ms(lambda i: torch.topk(reference.similarity(query_tensors[i][None], corpus_tensor)[0], 10),
                              len(queries))
    rows.append(Row(f"Top-10 of one query over the {len(corpus):,} CSR rows (SPLADE-tiny, dot product)",
                    f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                    f"SparseEncoder.similarity on torch sparse tensors + topk: p50 {r50:.1f} ms, p95 {r95:.1f} ms",
                    f"{r50 / p50:.1f}× (p50)", raw={"ours_p50_ms": p50, "ours_p95_ms": p95, "reference_p50_ms": r50,
                                                     "reference_p95_ms": r95}))
    bench_bm25(rows, corpus, paraphrase_task("dev").queries)


def bench_bm25(rows: list[Row], corpus: list[str], queries: list[str]) -> None:
    import bm25s
    from bm25s.tokenization import Tokenizer

    from core.analysis.search import top_k
    from core.evaluation.lexical import fit_baseline

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

    ours_time = their_time = float("inf")
    for _ in range(3):
        ours_time, their_time = min(ours_time, best_of(ours, 1)), min(their_time, best_of(theirs, 1))
    rows.append(Row(f"BM25: top 10 of the {len(queries)} STS-B dev queries over {len(corpus):,} texts (index built in "
                    f"{ours_fit:.2f} s, bm25s's {their_fit:.2f} s)", f"{ours_time * 1000:.0f} ms",
                    f"bm25s tokenize + retrieve: {their_time * 1000:.0f} ms", f"{their_time / ours_time:.2f}×",
                    raw={"ours_s": ours_time, "bm25s_s": their_time, "ours_fit_s": ours_fit, "bm25s_fit_s": their_fit}))
