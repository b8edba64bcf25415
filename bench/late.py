"""Late interaction against sentence-transformers' MultiVectorEncoder: encoding the corpus as documents against
encode_document, exact MaxSim of the STS-B dev queries over the corpus against `model.similarity` brute force, what
the token vectors take per document (and with HierarchicalTokenPooling) beside a dense vector, and the token index's
candidates rescored by MaxSim against exact MaxSim.

No late-interaction model ships in a package: the model is the packaged all-MiniLM-L6-v2 converted by
`MultiVectorEncoder(<folder>)` (its transformer, a seeded random 384 → 128 projection, token normalisation), saved
once into the cache. Its projection is untrained, which changes no timing and keeps the token geometry the recall is
measured on; its retrieval quality is not what these rows measure."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from bench.common import Row, interleaved_best, percentiles_ms
from core.data.stsb import stsb_corpus
from core.evaluation.retrieval import paraphrase_task

TEXTS = 2_000  # encoded by both sides, as the sparse row encodes them
POOL_FACTORS = (1, 2, 3, 4)
SEED = 0


def converted_minilm() -> Path:
    """The packaged all-MiniLM-L6-v2 as a MultiVectorEncoder (projection drawn from SEED), saved once."""
    import torch
    from sentence_transformers import MultiVectorEncoder

    from core.models.packages import packaged_minilm_folder
    from core.paths import cache_dir

    folder = cache_dir() / "bench" / f"minilm-multivector-seed{SEED}"
    if not (folder / "modules.json").exists():
        torch.manual_seed(SEED)
        MultiVectorEncoder(str(packaged_minilm_folder()), device="cpu").save(str(folder))
    return folder


def bench_late(rows: list[Row]) -> None:
    import torch
    from sentence_transformers import MultiVectorEncoder

    from core.encoding.late.cache import cached_token_matrix
    from core.models.loading import load_model

    folder = converted_minilm()
    model = load_model(str(folder), "cpu")
    reference = MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)
    bench_encoding(rows, model, reference)
    corpus_texts, queries_texts = stsb_corpus(), paraphrase_task("dev").queries
    corpus = cached_token_matrix(model, corpus_texts, "document")
    queries = cached_token_matrix(model, queries_texts, "query")
    documents = [torch.from_numpy(np.array(corpus.text(i).vectors)) for i in range(len(corpus))]
    bench_maxsim(rows, queries, corpus, reference, documents)
    bench_memory(rows, corpus, documents)
    bench_token_index(rows, queries, corpus)


def bench_encoding(rows: list[Row], model, reference) -> None:
    from core.encoding.late.tokens import encode_multivector

    texts = list(stsb_corpus()[:TEXTS])
    encode_multivector(model, texts[:64])
    reference.encode_document(texts[:64])

    def ours() -> None:
        model.memo.clear()
        encode_multivector(model, texts, role="document")

    ours_time, their_time = interleaved_best(ours, lambda: reference.encode_document(texts, batch_size=32))
    rows.append(Row(f"Late interaction: encode {TEXTS:,} STS-B sentences as documents (all-MiniLM-L6-v2 converted to "
                    "a MultiVectorEncoder, random projection; each kept token as a string, memoised per text)",
                    f"{TEXTS / ours_time:,.0f} texts/s",
                    f"MultiVectorEncoder.encode_document, batch 32: {TEXTS / their_time:,.0f} texts/s",
                    f"{their_time / ours_time:.2f}× (goal: 1.0× or more)",
                    raw={"ours_s": ours_time, "sentence_transformers_s": their_time, "texts": TEXTS}))


def bench_maxsim(rows: list[Row], queries, corpus, reference, documents) -> None:
    import torch

    from core.analysis.late.maxsim import maxsim_top_k

    asked = [torch.from_numpy(np.array(queries.text(i).vectors)) for i in range(len(queries))]
    mine: list = []
    brute: list = []

    def theirs() -> None:
        brute.append(reference.similarity(asked, documents).topk(10, dim=1))

    ours_time, their_time = interleaved_best(lambda: mine.append(maxsim_top_k(queries, corpus, 10)), theirs)
    largest = float(np.abs(mine[-1].scores - brute[-1].values.numpy()).max())
    # rank by rank the same scores: the same top 10 but for the order of tied texts (texts that differ only in case
    # or spacing get the same tokens, so the same score), which torch.topk leaves unspecified
    same = largest < 1e-4
    reordered = int((mine[-1].indices != brute[-1].indices.numpy()).sum())
    rows.append(Row(f"MaxSim top 10 of the {len(queries)} STS-B dev queries over {len(corpus):,} texts "
                    f"({queries.token_count:,} query and {corpus.token_count:,} corpus token vectors; one matrix "
                    "product per block and a segment max)" + ("" if same else " (TOP 10 DIFFERS)"),
                    f"{ours_time:.2f} s", f"model.similarity brute force + topk: {their_time:.2f} s",
                    f"{their_time / ours_time:.2f}× (goal: 1.0× or more); scores within {largest:.1e}, "
                    f"{reordered} of {mine[-1].indices.size:,} places holding another of tied texts",
                    raw={"ours_s": ours_time, "sentence_transformers_s": their_time, "same_top_10": same,
                         "tied_places_reordered": reordered,
                         "largest_score_difference": largest, "query_tokens": queries.token_count,
                         "corpus_tokens": corpus.token_count}))


def bench_memory(rows: list[Row], corpus, documents) -> None:
    from sentence_transformers.multi_vector_encoder.modules import HierarchicalTokenPooling

    width, texts = corpus.shape[1], len(corpus)
    dense = 384 * 4  # all-MiniLM-L6-v2's vector of the same text, float32
    tokens = {1: corpus.token_count}
    for factor in POOL_FACTORS[1:]:
        pooled = HierarchicalTokenPooling(pool_factor=factor).pool(documents)
        tokens[factor] = sum(len(text) for text in pooled)
    per_text = {factor: count * width * 4 / texts for factor, count in tokens.items()}
    factors = ", ".join(map(str, POOL_FACTORS))
    rows.append(Row(f"Late interaction: float32 token vectors per document of the {texts:,}-text STS-B corpus "
                    f"({width} dims a token); HierarchicalTokenPooling pool factors {factors}",
                    "; ".join(f"factor {f}: {tokens[f] / texts:.1f} tokens, {per_text[f] / 1e3:.2f} KB"
                              for f in POOL_FACTORS),
                    f"one 384-dim float32 vector (all-MiniLM-L6-v2): {dense / 1e3:.2f} KB; the corpus "
                    f"{dense * texts / 1e6:.1f} MB against {per_text[1] * texts / 1e6:.1f} MB unpooled",
                    " / ".join(f"{per_text[f] / dense:.1f}×" for f in POOL_FACTORS) + " a dense vector (reported)",
                    raw={"texts": texts, "width": width, "dense_bytes": dense,
                         **{f"tokens_pool_{f}": tokens[f] for f in POOL_FACTORS},
                         **{f"bytes_per_text_pool_{f}": per_text[f] for f in POOL_FACTORS}}))


def bench_token_index(rows: list[Row], queries, corpus) -> None:
    from core.analysis.late.index import build_late_index
    from core.analysis.late.maxsim import maxsim_top_k

    started = time.perf_counter()
    index = build_late_index(corpus, exact_up_to=0)  # the graph however small the corpus
    built = time.perf_counter() - started
    exact = maxsim_top_k(queries, corpus, 10)
    found = index.search(queries, 10)
    recall = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact.indices, found.indices)]))
    one = [queries[i:i + 1] for i in range(len(queries))]
    i50, i95 = percentiles_ms(lambda i: index.search(one[i], 10), len(one))
    e50, e95 = percentiles_ms(lambda i: maxsim_top_k(one[i], corpus, 10), len(one))
    rows.append(Row(f"Token-index candidates then exact MaxSim: FAISS HNSW over the {corpus.token_count:,} corpus "
                    f"token vectors, {index.neighbours} nearest per query token (tuned at build time to recall@10 "
                    f"{index.recall_at_10:.3f}), built in {built:.0f} s; the {len(queries)} STS-B dev queries",
                    f"recall@10 {recall:.3f} against exact (goal: 0.95 or more); p50 {i50:.0f} ms, p95 {i95:.0f} ms",
                    f"exact MaxSim: p50 {e50:.0f} ms, p95 {e95:.0f} ms a query",
                    f"{e50 / i50:.2f}× (p50; the index is for corpora past exact search's range)",
                    raw={"recall_at_10": recall, "recall_at_10_at_build": index.recall_at_10,
                         "neighbours": index.neighbours, "build_s": built, "index_p50_ms": i50, "index_p95_ms": i95,
                         "exact_p50_ms": e50, "exact_p95_ms": e95}))
