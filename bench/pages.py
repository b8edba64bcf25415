"""Pages as people use them: a first visit to Retrieval, thirty students on one server, one input changed on each
page."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import ROOT, Row
from core.models.loading import load_model

TEN_TEXTS = ["A dog runs in the park.", "A puppy plays on the grass.", "The stock market fell.",
             "Shares dropped sharply.", "It is raining today.", "The weather is wet.", "She plays the violin.",
             "He sat on the river bank.", "I deposit money at the bank.", "The cat sleeps on the sofa."]


PAGE_CHANGES = {  # page -> (widget type, key, first value, changed value): one input a person would edit
    "views/similarity.py": ("text_area", "sim_texts", "\n".join(TEN_TEXTS),
                            "\n".join(TEN_TEXTS).replace("cat", "kitten")),
    "views/layers.py": ("text_area", "layers_texts", "\n".join(TEN_TEXTS[7:9]),
                        "\n".join([*TEN_TEXTS[7:9], "The bank approved the loan."])),
    "views/model.py": ("text_area", "model_text", TEN_TEXTS[0], TEN_TEXTS[1]),
    "views/retrieval.py": ("text_input", "ret_query", "a dog in the park", "money in the bank"),
    "views/evaluation.py": ("text_input", "ev_ks", "1, 5, 10", "1, 5, 10, 20, 50"),
    "views/map.py": ("text_input", "map_query", "a dog in the park", "money in the bank"),
}


def bench_first_contact(rows: list[Row]) -> None:
    """Retrieval on a corpus not embedded yet: the first answer (the baselines, the embedding queued) against the
    whole wait for the model's answer, which is what a first visit took before the queue."""
    from streamlit.testing.v1 import AppTest

    from core.jobs import JOBS

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.query_params["pooling"] = "mean_sqrt_len"  # a configuration no other section embeds
    at.run()
    at.query_params["pooling"] = "mean_sqrt_len"
    start = time.perf_counter()
    at.switch_page("views/retrieval.py").run()
    first = time.perf_counter() - start
    shown = bool(at.table) and not at.exception and bool(JOBS.unfinished())
    JOBS.wait_idle(1800)
    at.run()
    whole = time.perf_counter() - start
    rows.append(Row("Retrieval, first visit, 7,977-text corpus not embedded yet: TF-IDF and bag of words shown "
                    f"(queue used: {shown}) vs. the model's list in place", f"{first:.2f} s", f"{whole:.1f} s",
                    f"{whole / first:.0f}× sooner",
                    raw={"first_answer_s": first, "model_answer_s": whole, "queue_used": shown}))


def bench_classroom(rows: list[Row]) -> None:
    """Thirty students on one server (websocket clients, tests/load/classroom.py) against one student alone, and
    the same class while a fine-tuning run goes on in the server's job queue."""
    from core.data.stsb import stsb_corpus
    from tests.browser.harness import start_server
    from tests.load.classroom import CLASS_THINK, STRESS_THINK, open_home, run_class, start_training
    from tests.views.cache_fill import prefill

    prefill(load_model("all-MiniLM-L6-v2", "cpu"), stsb_corpus())  # Retrieval's corpus stored, as after warm-up
    start = time.perf_counter()
    server = start_server(Path(tempfile.mkdtemp(prefix="explorer-bench-class-")) / "server.log")
    try:
        home = open_home(server.url)
        cold = time.perf_counter() - start
        run_class(server.url, 1, server.rss_mb, think=(0.0, 0.0))  # first visits: figures and caches warm
        alone = run_class(server.url, 1, server.rss_mb)
        full = run_class(server.url, 30, server.rss_mb)
        stress = run_class(server.url, 30, server.rss_mb, think=STRESS_THINK)
        training = start_training(server.url)
        busy = run_class(server.url, 30, server.rss_mb)
    finally:
        server.stop()
    rows.append(Row(f"Cold start: the server started to the Home page drawn for the first visitor (drawn: {home})",
                    f"{cold:.1f} s", "goal: under 10 s", f"{10 / cold:.1f}× inside the goal",
                    raw={"cold_start_s": cold, "drawn": home}))
    one = alone.quantile(0.5)
    runs = (full, stress, busy)
    state = "ok" if not any(r.errors or r.leaks for r in runs) else \
        f"{sum(len(r.errors) for r in runs)} errors, {sum(len(r.leaks) for r in runs)} leaks"
    for report, think in ((full, CLASS_THINK), (stress, STRESS_THINK)):
        rows.append(Row(f"30 students at once (Similarity, Layers, Retrieval; {think[0]:.0f}–{think[1]:.0f} s between "
                        f"actions): change → script finished, p50 / p95 ({state})",
                        f"{report.quantile(0.5):.2f} / {report.quantile(0.95):.2f} s",
                        f"one student alone, p50: {one:.2f} s",
                        f"{report.quantile(0.5) / one:.1f}× / {report.quantile(0.95) / one:.1f}×",
                        raw={"p50_s": report.quantile(0.5), "p95_s": report.quantile(0.95), "alone_p50_s": one,
                             "think_min_s": think[0], "think_max_s": think[1]}))
    rows.append(Row("Server memory at peak with 30 students (model, corpus embeddings and caches shared)",
                    f"{max(full.peak_rss_mb, stress.peak_rss_mb):,.0f} MB",
                    f"one student: {alone.peak_rss_mb:,.0f} MB",
                    "goal: under 1,536 MB",
                    raw={"peak_mb": max(full.peak_rss_mb, stress.peak_rss_mb), "alone_mb": alone.peak_rss_mb}))
    rows.append(Row("Server memory at peak with 30 students while a fine-tuning run goes on (a second model in "
                    "training, its optimizer, its before/after measures)", f"{busy.peak_rss_mb:,.0f} MB",
                    f"30 students, no run: {full.peak_rss_mb:,.0f} MB",
                    f"+{busy.peak_rss_mb - full.peak_rss_mb:,.0f} MB",
                    raw={"training_mb": busy.peak_rss_mb, "no_run_mb": full.peak_rss_mb}))
    rows.append(Row(f"30 students while a fine-tuning run goes on (started: {training}): p50 / p95",
                    f"{busy.quantile(0.5):.2f} / {busy.quantile(0.95):.2f} s",
                    f"30 students, no run: p95 {full.quantile(0.95):.2f} s",
                    f"{busy.quantile(0.95) / full.quantile(0.95):.1f}× the p95",
                    raw={"p50_s": busy.quantile(0.5), "p95_s": busy.quantile(0.95), "no_run_p95_s": full.quantile(0.95),
                         "started": training}))


def bench_pages(rows: list[Row]) -> None:
    from streamlit.testing.v1 import AppTest

    from core.jobs import JOBS

    for page, (widget_type, key, first, changed) in PAGE_CHANGES.items():
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900).run()
        at.switch_page(page).run()
        getattr(at, widget_type)(key=key).set_value(first).run()  # warm: corpus embeddings, memo, figures
        if JOBS.unfinished():  # a corpus embedding in the background: time the page with its results
            JOBS.wait_idle(1800)
            at.run()
        changed_widget = getattr(at, widget_type)(key=key)  # from the new element tree
        start = time.perf_counter()
        changed_widget.set_value(changed).run()
        elapsed = time.perf_counter() - start
        state = "exception" if at.exception else ("ok" if elapsed < 1 else "over goal")
        rows.append(Row(f"Page {page}: {key} changed → script finished (AppTest, model cached)",
                        f"{elapsed * 1000:,.0f} ms", "goal: under 1 s", state,
                        raw={"change_s": elapsed}))
