"""The map: t-SNE against PCA and against scikit-learn's t-SNE, and a 100,000-point vectors file mapped in headless
Chromium."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import Row, best_of
from core.data.stsb import stsb_sentences
from core.models.loading import load_model

LARGE = 100_000  # points in the vectors file (a 154 MB upload, under the 200 MB limit)


def bench_tsne(rows: list[Row]) -> None:
    from core.analysis.map.projection import pca_projection, tsne_projection
    from core.encoding.embedding_cache import cached_embeddings

    texts = list(dict.fromkeys(stsb_sentences("train") + stsb_sentences("dev")))[:5000]
    vectors = cached_embeddings(load_model("all-MiniLM-L6-v2", "cpu"), texts)
    pca = best_of(lambda: pca_projection(vectors), 3)
    tsne = best_of(lambda: tsne_projection(vectors, perplexity=30, seed=0), 1)
    rows.append(Row(f"t-SNE map of {len(texts):,} STS-B sentences (default model, perplexity 30)", f"{tsne:.1f} s",
                    f"PCA of the same points: {pca * 1000:.0f} ms",
                    "goal: under 60 s" + ("" if tsne < 60 else " (missed)"),
                    raw={"tsne_s": tsne, "pca_s": pca, "points": len(texts)}))
    bench_opentsne(rows)


def bench_opentsne(rows: list[Row]) -> None:
    """The app's t-SNE (openTSNE, FFT-accelerated) against scikit-learn's, on 5,000 and on all 15,457 distinct STS-B
    sentences: time, and trustworthiness on the same seeded 2,000 points."""
    from sklearn.manifold import TSNE

    from core.analysis.map.projection import trust, tsne_projection
    from core.data.stsb import stsb_genres
    from core.encoding.embedding_cache import cached_embeddings

    texts = stsb_genres()["text"].tolist()
    everything = cached_embeddings(load_model("all-MiniLM-L6-v2", "cpu"), texts)
    for count in (5_000, len(texts)):
        vectors = everything[:count]
        start = time.perf_counter()
        ours = tsne_projection(vectors, perplexity=30, seed=0).coords
        ours_s = time.perf_counter() - start
        start = time.perf_counter()
        theirs = TSNE(perplexity=30, metric="cosine", init="pca", random_state=0).fit_transform(vectors)
        theirs_s = time.perf_counter() - start
        t_ours, t_theirs = (trust(vectors, coords, seed=0, max_points=2_000).trustworthiness
                            for coords in (ours, theirs))
        rows.append(Row(f"t-SNE of {count:,} STS-B sentences, openTSNE (the app's; trustworthiness {t_ours:.3f})",
                        f"{ours_s:.1f} s", f"scikit-learn TSNE (trustworthiness {t_theirs:.3f}): {theirs_s:.1f} s",
                        f"{theirs_s / ours_s:.2f}× faster",
                        raw={"opentsne_s": ours_s, "sklearn_s": theirs_s, "opentsne_trustworthiness": t_ours,
                             "sklearn_trustworthiness": t_theirs, "points": count}))


def bench_map_scale(rows: list[Row]) -> None:
    """The map of a 100,000-point vectors file (STS-B's embeddings cycled with a little noise) in headless Chromium,
    against 20,000 points of the same file on the same server."""
    from playwright.sync_api import sync_playwright

    from bench.map_browser import time_map, vector_files
    from core.data.stsb import stsb_genres
    from core.encoding.embedding_cache import cached_embeddings
    from tests.browser.harness import start_server

    texts = stsb_genres()["text"].tolist()
    vectors = cached_embeddings(load_model("all-MiniLM-L6-v2", "cpu"), texts)
    folder = Path(tempfile.mkdtemp(prefix="explorer-map-"))
    server = start_server(folder / "server.log")
    try:
        with sync_playwright() as playwright:
            small, large = (time_map(playwright, server, vector_files(folder / str(n), texts, vectors, n), n)
                            for n in (20_000, LARGE))
    finally:
        server.stop()
    what = f"Map of a {LARGE:,}-point vectors file (384 dims) in headless Chromium"
    rows.append(Row(f"{what}: upload to the map drawn (PCA, trust, k-means labels)", f"{large.upload_to_drawn_s:.1f} s",
                    f"20,000 points: {small.upload_to_drawn_s:.1f} s",
                    f"{large.upload_to_drawn_s / small.upload_to_drawn_s:.1f}× for 5× the points",
                    raw={"large_s": large.upload_to_drawn_s, "small_s": small.upload_to_drawn_s}))
    rows.append(Row(f"{what}: largest message to the browser", f"{large.largest_message_mb:.1f} MB",
                    f"20,000 points: {small.largest_message_mb:.1f} MB", "Streamlit's limit: 200 MB",
                    raw={"large_mb": large.largest_message_mb, "small_mb": small.largest_message_mb}))
    rows.append(Row(f"{what}: drawn after the points' message arrived", f"{large.draw_s:.1f} s",
                    f"20,000 points: {small.draw_s:.1f} s", f"{large.draw_s / small.draw_s:.1f}×",
                    raw={"large_s": large.draw_s, "small_s": small.draw_s}))
    rows.append(Row(f"{what}: a highlight search typed, until the map is redrawn", f"{large.search_redrawn_s:.1f} s",
                    f"20,000 points: {small.search_redrawn_s:.1f} s",
                    f"{large.search_redrawn_s / small.search_redrawn_s:.1f}×",
                    raw={"large_s": large.search_redrawn_s, "small_s": small.search_redrawn_s}))
