"""Evaluation's model checks against one plain evaluation of the same configuration, each from a cold cache (the
vectors encoded once, then truncated or quantised), and a static model distilled from all-MiniLM-L6-v2 against it."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace

from bench.common import Row


def _cold(run: Callable[[object], object], model) -> float:
    """Seconds for `run(model)` with nothing encoded yet: an empty disk cache and empty memos."""
    from core.encoding import embedding_cache
    from core.models.memo import EmbeddingMemo

    os.environ["EXPLORER_CACHE_DIR"] = tempfile.mkdtemp(prefix="explorer-bench-checks-")
    embedding_cache._memo.clear()
    start = time.perf_counter()
    run(replace(model, memo=EmbeddingMemo()))
    return time.perf_counter() - start


def bench_checks(rows: list[Row]) -> None:
    from core.evaluation.retrieval import evaluate_embeddings, paraphrase_task, task_vectors
    from core.evaluation.sts import pair_rows
    from core.evaluation.variants import (
        CHECK_KS,
        Embedded,
        default_dimensions,
        dimension_check,
        measure,
        model_check,
        quantization_check,
    )
    from core.models.loading import load_model
    from core.settings import Settings
    from core.training.distill import distill_static

    model = load_model("all-MiniLM-L6-v2", "cpu")
    task, settings = paraphrase_task("dev"), Settings(model_id=model.model_id)
    texts = f"the {len(task.corpus):,}-text paraphrase task, all-MiniLM-L6-v2, cold cache"
    plain = _cold(lambda m: evaluate_embeddings(m, task, settings, ks=CHECK_KS), model)
    dims = default_dimensions(model.dimensions)
    sweep = _cold(lambda m: dimension_check(task, Embedded(*task_vectors(m, task, settings)), dims), model)
    quantised = _cold(lambda m: quantization_check(task, Embedded(*task_vectors(m, task, settings))), model)
    anchor = f"one plain evaluation: {plain:.1f} s"
    rows.append(Row(f"Dimensions check ({len(dims)} sizes, {dims[0]} to {dims[-1]}), {texts}", f"{sweep:.1f} s", anchor,
                    f"{sweep / plain:.2f}× (goal: under 1.5×)",
                    raw={"check_s": sweep, "plain_evaluation_s": plain, "dimensions": len(dims)}))
    rows.append(Row(f"Quantisation check (float32, int8, binary, binary rescored; each search timed 3 times), {texts}",
                    f"{quantised:.1f} s", anchor, f"{quantised / plain:.2f}× (goal: under 1.5×)",
                    raw={"check_s": quantised, "plain_evaluation_s": plain}))
    made = distill_static(model, name="bench-minilm-static")
    static = load_model(made.id, "cpu")
    sts = pair_rows("dev")
    sample = sts.sentences[:1000]
    measured = {m.model_id: measure(m, Embedded(*task_vectors(m, task, settings.with_(model_id=m.model_id)),
                                                sentences=None), sample, settings.with_(model_id=m.model_id))
                for m in (model, static)}
    frame = model_check(task, measured).set_index("model")
    teacher, student = frame.loc[model.model_id], frame.loc[made.id]
    corpus_seconds = len(task.corpus) / teacher["texts/s"]
    rows.append(Row("Distil a static model from all-MiniLM-L6-v2 (model2vec, PCA 256, its 30,522-entry vocabulary)",
                    f"{made.seconds:.0f} s", f"encoding the {len(task.corpus):,} corpus texts with the teacher: "
                    f"{corpus_seconds:.0f} s", f"{made.seconds / corpus_seconds:.1f}×",
                    raw={"distil_s": float(made.seconds), "teacher_corpus_s": float(corpus_seconds)}))
    rows.append(Row(f"The static model encodes {len(sample):,} STS-B sentences (Recall@1 {student['recall@1']:.3f}, "
                    f"{student['MB']:.0f} MB)", f"{student['texts/s']:,.0f} texts/s",
                    f"all-MiniLM-L6-v2 (Recall@1 {teacher['recall@1']:.3f}, {teacher['MB']:.0f} MB): "
                    f"{teacher['texts/s']:,.0f} texts/s", f"{student['texts/s'] / teacher['texts/s']:,.0f}× faster",
                    raw={"static_texts_s": float(student["texts/s"]), "teacher_texts_s": float(teacher["texts/s"]),
                         "static_recall_at_1": float(student["recall@1"]),
                         "teacher_recall_at_1": float(teacher["recall@1"]), "static_mb": float(student["MB"]),
                         "teacher_mb": float(teacher["MB"])}))
