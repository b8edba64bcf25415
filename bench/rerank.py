"""Reranking against sentence-transformers' CrossEncoder.rank on the same candidates, and a cross-encoder's training
time against a bi-encoder fine-tune of the same steps. The reranker is a cross-encoder trained here from
all-MiniLM-L6-v2 (one epoch of STS-B train, if none is on this machine yet)."""

from __future__ import annotations

import time

from bench.common import Row, interleaved_best

STEPS = 60
RERANKER = "bench-minilm-reranker"


def _reranker():
    from core.data.pairs import stsb_train
    from core.models.catalog import find_entry
    from core.models.reranker import load_reranker
    from core.training.finetune import RunRequest, TrainOptions, run

    if find_entry(RERANKER).source != "finetuned":
        run(RunRequest("all-MiniLM-L6-v2", stsb_train(), "reranker", TrainOptions(max_steps=None), RERANKER))
    return load_reranker(RERANKER, "cpu")


def bench_rerank(rows: list[Row]) -> None:
    from core.analysis.lexical import fit_baseline
    from core.evaluation.rerank import rerank_task
    from core.evaluation.retrieval import lexical_stage, paraphrase_task

    reranker = _reranker()
    task = paraphrase_task("dev")
    stage = lexical_stage(fit_baseline("bm25", task.corpus), task)
    for n in (10, 50):
        hits = stage.hits(task, n)
        candidates = [[task.corpus[d] for d in row if d >= 0] for row in hits.indices]

        def ours(n: int = n) -> object:
            return rerank_task(task, stage, reranker, depths=[n], ks=[1])

        def theirs(candidates: list[list[str]] = candidates) -> object:
            return [reranker.cross.rank(query, docs, batch_size=32) for query, docs in zip(task.queries, candidates)]

        ours_time, their_time = interleaved_best(ours, theirs)
        pairs = sum(map(len, candidates))
        rows.append(Row(f"Rerank BM25's top {n} for the {len(task.queries)} STS-B dev queries ({pairs:,} pairs, "
                        f"{reranker.model_id}; ours also scores the task)", f"{ours_time:.1f} s",
                        f"CrossEncoder.rank per query on the same candidates: {their_time:.1f} s",
                        f"{their_time / ours_time:.2f}× (goal: 1.0× or more)",
                        raw={"ours_s": ours_time, "rank_s": their_time, "pairs": pairs, "top": n}))
    bench_training(rows)


def bench_training(rows: list[Row]) -> None:
    from core.data.pairs import stsb_train
    from core.models.loading import sentence_transformer
    from core.training.finetune import RunControl, TrainOptions, cross_encoder_from, train

    options = TrainOptions(max_steps=STEPS)
    pairs = stsb_train()
    started = time.perf_counter()
    with cross_encoder_from("all-MiniLM-L6-v2", "cpu") as cross:
        train(cross, pairs, "reranker", options, RunControl())
    cross_s = time.perf_counter() - started
    started = time.perf_counter()
    train(sentence_transformer("all-MiniLM-L6-v2", "cpu"), pairs, "cosine", options, RunControl())
    bi_s = time.perf_counter() - started
    rows.append(Row(f"Train a cross-encoder (reranker) from all-MiniLM-L6-v2, {STEPS} steps of STS-B train at batch 16",
                    f"{cross_s:.0f} s", f"bi-encoder fine-tune, cosine objective, same steps: {bi_s:.0f} s",
                    f"{cross_s / bi_s:.2f}×", raw={"cross_encoder_s": cross_s, "bi_encoder_s": bi_s, "steps": STEPS}))
