"""Exact top-k search against FAISS and scikit-learn, and the STS-B evaluation against sentence-transformers'
evaluator."""

from __future__ import annotations

import numpy as np

from bench.common import Row, interleaved_best, latency_percentiles_ms
from core.data.stsb import load_stsb
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder


def bench_search(rows: list[Row]) -> None:
    """Against the best exact searches a user would pick: FAISS's IndexFlatIP (benchmark only) and scikit-learn."""
    import faiss
    from sklearn.neighbors import NearestNeighbors

    from core.analysis.search import top_k, unit_rows

    rng = np.random.default_rng(0)
    corpus = unit_rows(rng.standard_normal((100_000, 384), dtype=np.float32))
    queries = unit_rows(rng.standard_normal((100, 384), dtype=np.float32))
    knn = NearestNeighbors(n_neighbors=10, metric="cosine", algorithm="brute").fit(corpus)
    flat = faiss.IndexFlatIP(corpus.shape[1])
    flat.add(corpus)

    p50, p95 = latency_percentiles_ms(lambda q: top_k(q, corpus, 10), queries)
    same = all(set(top_k(q[None], corpus, 10).indices[0]) == set(knn.kneighbors(q[None], 10)[1][0])
               == set(flat.search(q[None], 10)[1][0]) for q in queries[:10])
    for name, search in (("FAISS IndexFlatIP (exact)", lambda q: flat.search(q, 10)),
                         ("scikit-learn NearestNeighbors brute cosine", lambda q: knn.kneighbors(q, 10))):
        r50, r95 = latency_percentiles_ms(search, queries)
        rows.append(Row("Top-10 of one query over 100,000 cached vectors (384 dims)"
                        + ("" if same else " (RESULTS DIFFER)"), f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                        f"{name}: p50 {r50:.1f} ms, p95 {r95:.1f} ms", f"{r50 / p50:.1f}× (p50)",
                        raw={"ours_p50_ms": p50, "ours_p95_ms": p95, "reference_p50_ms": r50,
                             "reference_p95_ms": r95, "same_results": same}))


def bench_sts(rows: list[Row]) -> None:
    import shutil

    from sentence_transformers import SentenceTransformer
    from sentence_transformers.evaluation import EmbeddingSimilarityEvaluator

    from core.evaluation.sts import correlation, sts_frame
    from core.paths import cache_dir

    pairs = load_stsb("dev")
    model = load_model("all-MiniLM-L6-v2", "cpu")
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    evaluator = EmbeddingSimilarityEvaluator([p.sentence1 for p in pairs], [p.sentence2 for p in pairs],
                                             [p.score / 5 for p in pairs], batch_size=64)
    ours_result: dict[str, float] = {}
    ref_result: dict[str, float] = {}

    def ours() -> None:  # cold: no memo, no embeddings on disk
        model.memo.clear()
        shutil.rmtree(cache_dir() / "embeddings", ignore_errors=True)
        ours_result.update(correlation(sts_frame(model, "dev")))

    ours_time, ref_time = interleaved_best(ours, lambda: ref_result.update(evaluator(reference)))
    ref_spearman = next(v for k, v in ref_result.items() if k.endswith("spearman_cosine"))
    rows.append(Row(f"STS-B dev evaluation end to end, {len(pairs)} pairs, cold (Spearman "
                    f"{ours_result['spearman_cosine']:.6f} vs {ref_spearman:.6f})", f"{ours_time:.2f} s",
                    f"EmbeddingSimilarityEvaluator: {ref_time:.2f} s", f"{ref_time / ours_time:.2f}×",
                    raw={"ours_s": ours_time, "reference_s": ref_time, "ours_spearman": ours_result["spearman_cosine"],
                         "reference_spearman": float(ref_spearman)}))
