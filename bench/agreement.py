"""How two spaces agree, at the sizes the issue names: CKA of every layer of all-MiniLM-L6-v2 against every layer of
all-mpnet-base-v2 over 2,000 texts (against sentence-transformers encoding the same texts), and neighbour overlap@10
over a million rows through FAISS HNSW (against exact search, on a sample and in time)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from bench.common import Row

LAYER_TEXTS = 2_000
OVERLAP_ROWS = 1_000_000
EXACT_SAMPLE = 1_000  # texts whose neighbours are also found exactly among all rows, in both spaces
NOISE = 0.03  # as bench.scale.synthetic


def _linked_mpnet() -> None:
    """`make models-extra` assembles all-mpnet-base-v2 in the user's cache, and the bench runs on a cache of its own:
    the bench's cache links to it (where it is missing, loading it says to run `make models-extra`)."""
    from core.models.packages import mpnet_folder

    target = mpnet_folder()
    user = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "embedding-explorer" / "models"
    if (user / target.name).is_dir() and not target.exists():
        target.symlink_to(user / target.name, target_is_directory=True)


def bench_layer_cka(rows: list[Row]) -> None:
    """Every layer of both models from one forward pass each (the app's encoder) and the 7 × 13 CKA matrix, once
    (the memo would answer a second run); the anchor is sentence-transformers encoding the same texts with both."""
    from sentence_transformers import SentenceTransformer

    from core.analysis.agreement import cka_matrix
    from core.data.stsb import stsb_corpus
    from core.evaluation.compared_models import layer_vectors
    from core.models.catalog import MPNET_ID
    from core.models.loading import load_model
    from core.settings import Settings

    _linked_mpnet()
    texts = list(stsb_corpus()[:LAYER_TEXTS])
    ids = ("all-MiniLM-L6-v2", MPNET_ID)
    models = [load_model(model_id, "cpu") for model_id in ids]
    references = [SentenceTransformer(str(model.folder), device="cpu") for model in models]
    start = time.perf_counter()
    for reference in references:
        reference.encode(texts, batch_size=32)
    anchor = time.perf_counter() - start
    start = time.perf_counter()
    layers = [layer_vectors(model, texts, Settings(model_id=model.model_id)) for model in models]
    encoded = time.perf_counter() - start
    start = time.perf_counter()
    matrix = cka_matrix(list(layers[0]), list(layers[1]))
    measured = time.perf_counter() - start
    total = encoded + measured
    rows.append(Row(f"CKA of every layer of all-MiniLM-L6-v2 against every layer of all-mpnet-base-v2 "
                    f"({matrix.shape[0]} × {matrix.shape[1]}) over {LAYER_TEXTS:,} STS-B texts: every layer of both "
                    "models encoded in one pass each, then the matrix", f"{total:.1f} s (the matrix: {measured:.2f} s)",
                    f"sentence-transformers encoding the same texts with both models: {anchor:.1f} s",
                    f"{total / anchor:.2f}×",
                    raw={"total_s": total, "encode_s": encoded, "matrix_s": measured, "anchor_s": anchor,
                         "texts": LAYER_TEXTS, "last_layers_cka": float(matrix[-1, -1])}))


def synthetic_pair(rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The same `rows` synthetic texts in two spaces: STS-B sentences drawn at random, each side the sentence's vector
    by all-MiniLM-L6-v2 (A) or paraphrase-MiniLM-L3-v2 (B, also 384 dims) plus the text's own Gaussian noise, the
    same draw on both sides (so the about 125 variants of a sentence differ alike in A and B, as texts do), scaled
    to unit length as bench.scale.synthetic makes one space, block by block."""
    from core.analysis.search import unit_rows
    from core.data.stsb import stsb_corpus
    from core.encoding.embedding_cache import cached_embeddings_with
    from core.models.catalog import L3_ID
    from core.models.loading import load_model
    from core.settings import Settings

    bases = [unit_rows(cached_embeddings_with(load_model(model_id, "cpu"), stsb_corpus(), Settings(model_id=model_id)))
             for model_id in ("all-MiniLM-L6-v2", L3_ID)]
    rng = np.random.default_rng(seed)
    spaces = [np.empty((rows, base.shape[1]), np.float32) for base in bases]
    for start in range(0, rows, 100_000):
        chosen = rng.integers(0, len(bases[0]), min(start + 100_000, rows) - start)
        noise = rng.normal(0, NOISE, (len(chosen), bases[0].shape[1]))
        for base, space in zip(bases, spaces):
            space[start:start + len(chosen)] = unit_rows(base[chosen] + noise)
    return spaces[0], spaces[1]


def bench_overlap_scale(rows: list[Row]) -> None:
    """Overlap@10 of all rows through HNSW (both indexes built, every row searched), and the same texts' overlap by
    exact search on a seeded sample: how far the two agree, and what exact search of every row would take."""
    from core.analysis.agreement import neighbour_overlap
    from core.analysis.search import top_k
    from core.data.sampling import sample_indices

    a, b = synthetic_pair(OVERLAP_ROWS)
    start = time.perf_counter()
    found = neighbour_overlap(a, b, k=10)
    through_index = time.perf_counter() - start
    sample = sample_indices(OVERLAP_ROWS, limit=EXACT_SAMPLE, seed=1)
    start = time.perf_counter()
    exact = [top_k(side[sample], side, 10, exclude=[{int(i)} for i in sample]).indices for side in (a, b)]
    exact_time = time.perf_counter() - start
    exact_shares = np.array([len(set(x) & set(y)) / 10 for x, y in zip(*exact)])
    index_shares = found.per_text[sample]
    recall = np.mean([len(set(x) & set(y)) / 10 for side, truth in zip((found.neighbours_a, found.neighbours_b), exact)
                      for x, y in zip(side[sample], truth)])
    estimated = exact_time * OVERLAP_ROWS / EXACT_SAMPLE
    assert found.recall is not None
    rows.append(Row(f"Neighbour overlap@10 of {OVERLAP_ROWS:,} synthetic texts in two spaces (all-MiniLM-L6-v2, "
                    "384 dims, against paraphrase-MiniLM-L3-v2, 384 dims; STS-B vectors plus noise) through FAISS "
                    "HNSW: both indexes built and every text searched",
                    f"{through_index / 60:.1f} min; overlap {found.mean:.3f}; on {EXACT_SAMPLE:,} sampled texts "
                    f"{index_shares.mean():.3f} against {exact_shares.mean():.3f} exact (per text, mean |difference| "
                    f"{np.abs(index_shares - exact_shares).mean():.3f}); the neighbours' recall@10 {recall:.3f} "
                    f"(at build time {found.recall[0]:.3f} A, {found.recall[1]:.3f} B)",
                    f"exact search of the sample in both spaces: {exact_time:.0f} s, so {estimated / 3600:.1f} h for "
                    "every text", f"{estimated / through_index:,.0f}× (estimated)",
                    raw={"rows": OVERLAP_ROWS, "hnsw_s": through_index, "overlap": found.mean,
                         "sample": EXACT_SAMPLE, "sample_overlap_hnsw": float(index_shares.mean()),
                         "sample_overlap_exact": float(exact_shares.mean()),
                         "mean_abs_difference": float(np.abs(index_shares - exact_shares).mean()),
                         "neighbour_recall_at_10": float(recall), "recall_at_10_at_build_a": found.recall[0],
                         "recall_at_10_at_build_b": found.recall[1], "exact_sample_s": exact_time,
                         "exact_estimated_s": estimated}))
