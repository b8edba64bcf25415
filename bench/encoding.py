"""Encoding speed against sentence-transformers on the same sentences, the encoder's share of the machine's
matmul ceiling, the memo, and a decoder embedder at full size."""

from __future__ import annotations

import numpy as np
import torch

from bench.common import Row, best_of, interleaved_best
from core.data.stsb import stsb_corpus, stsb_sentences
from core.encoding.encoder import encode
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder


def matmul_gflops(n: int = 2048, repeats: int = 5) -> float:
    a, b = torch.randn(n, n), torch.randn(n, n)
    torch.mm(a, b)
    return 2 * n**3 / best_of(lambda: torch.mm(a, b), repeats) / 1e9


def forward_flops(model, texts: list[str]) -> float:
    """Multiply-adds of the encoder's forward over the real (unpadded) tokens: 2·params·T + 4·L·T²·d."""
    layer_params = sum(p.numel() for name, p in model.network.named_parameters() if ".layer." in name)
    lengths = np.array([len(ids) for ids in model.tokenizer(texts, truncation=True,
                                                             max_length=model.max_length)["input_ids"]])
    attention = 4 * model.num_layers * model.hidden_size * (lengths.astype(np.float64) ** 2)
    return float(2 * layer_params * lengths.sum() + attention.sum())


PASSAGES, PASSAGE_TOKENS = 400, 160


def stsb_passages(tokenizer, count: int = PASSAGES, tokens: int = PASSAGE_TOKENS) -> list[str]:
    """STS-B corpus sentences joined in their order into passages, each ending at the first sentence that brings it to
    `tokens` tokens."""
    passages: list[str] = []
    sentences: list[str] = []
    for sentence in stsb_corpus():
        sentences.append(sentence)
        if len(tokenizer(" ".join(sentences))["input_ids"]) >= tokens:
            passages.append(" ".join(sentences))
            sentences = []
            if len(passages) == count:
                break
    return passages


def bench_batch_sizes(rows: list[Row], model, reference, sentences: list[str]) -> None:
    """Ours against sentence-transformers' encode at the same batch size, short sentences and long passages, each
    side's best of three interleaved runs."""
    for what, texts in ((f"{len(sentences)} STS-B dev sentences", sentences),
                        (f"{PASSAGES} passages of about {PASSAGE_TOKENS} tokens (STS-B sentences joined)",
                         stsb_passages(model.tokenizer))):
        for batch_size in (32, 128):
            def ours(batch_size: int = batch_size, texts: list[str] = texts) -> None:
                model.memo.clear()
                encode(model, texts, batch_size=batch_size)

            ours_time, st_time = interleaved_best(
                ours, lambda batch_size=batch_size, texts=texts: reference.encode(texts, batch_size=batch_size), 3)
            n = len(texts)
            rows.append(Row(f"Encode {what}, all-MiniLM-L6-v2, batch {batch_size}", f"{n / ours_time:,.0f} texts/s",
                            f"sentence-transformers encode, batch {batch_size}: {n / st_time:,.0f} texts/s",
                            f"{st_time / ours_time:.2f}× (goal: 1.0× or more)",
                            raw={"ours_s": ours_time, "sentence_transformers_s": st_time, "texts": n,
                                 "batch_size": batch_size}))


def bench_encoding(rows: list[Row]) -> None:
    from sentence_transformers import SentenceTransformer

    sentences = stsb_sentences("dev")
    model = load_model("all-MiniLM-L6-v2", "cpu")
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    encode(model, sentences[:64])
    reference.encode(sentences[:64])

    def ours() -> None:
        model.memo.clear()
        encode(model, sentences)

    st_times = {bs: best_of(lambda bs=bs: reference.encode(sentences, batch_size=bs), 1) for bs in (16, 32, 64, 128)}
    best_bs = min(st_times, key=st_times.get)
    ours_time, st_time = interleaved_best(ours, lambda: reference.encode(sentences, batch_size=best_bs))
    st_time = min(st_time, st_times[best_bs])
    n = len(sentences)
    rows.append(Row(f"Encode all {n} STS-B dev sentences, all-MiniLM-L6-v2 (ours keeps the layer asked for)",
                    f"{n / ours_time:,.0f} texts/s", f"sentence-transformers encode, batch {best_bs}: "
                    f"{n / st_time:,.0f} texts/s", f"{st_time / ours_time:.2f}×",
                    raw={"ours_s": ours_time, "sentence_transformers_s": st_time, "texts": n, "batch_size": best_bs}))
    bench_batch_sizes(rows, model, reference, sentences)
    ceiling = matmul_gflops()
    achieved = forward_flops(model, sentences) / ours_time / 1e9
    rows.append(Row("Effective encoder GFLOP/s", f"{achieved:.1f} GFLOP/s", f"fp32 2048² matmul: {ceiling:.1f} GFLOP/s",
                    f"{achieved / ceiling:.0%} of the ceiling",
                    raw={"ours_gflop_s": achieved, "matmul_gflop_s": ceiling}))
    model.memo.clear()
    first = best_of(lambda: encode(model, sentences), 1)
    hit = best_of(lambda: encode(model, sentences), 3)
    rows.append(Row(f"Re-encode the same {n} texts (memo hit)", f"{hit * 1000:.1f} ms", f"first pass: {first:.2f} s",
                    f"{first / hit:,.0f}× faster",
                    raw={"memo_hit_s": hit, "first_pass_s": first, "texts": n}))


def bench_decoder(rows: list[Row]) -> None:
    from bench.decoder import TEXTS, measure

    figures = measure(stsb_sentences("dev")[:TEXTS])
    what = (f"Qwen3-Embedding-0.6B's configuration, random weights (last token, left padding): embed {TEXTS:,} STS-B "
            "sentences")
    rows.append(Row(f"{what}, `python -m core embed` (model loading included)",
                    f"{figures['ours_texts_s']:.1f} texts/s",
                    f"sentence-transformers encode_document, batch 32 (loading not included): "
                    f"{figures['theirs_texts_s']:.1f} texts/s",
                    f"{figures['ours_texts_s'] / figures['theirs_texts_s']:.2f}× (goal: 1.0× or more)",
                    raw={"ours_texts_s": figures["ours_texts_s"], "theirs_texts_s": figures["theirs_texts_s"]}))
    rows.append(Row(f"{what}: peak resident memory", f"{figures['ours_peak_mb']:,.0f} MB",
                    f"sentence-transformers: {figures['theirs_peak_mb']:,.0f} MB",
                    f"{figures['ours_peak_mb'] / figures['theirs_peak_mb']:.2f}× (goal: 1.2× or less)",
                    raw={"ours_peak_mb": figures["ours_peak_mb"], "theirs_peak_mb": figures["theirs_peak_mb"]}))
