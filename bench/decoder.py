"""A decoder embedder at full size: Qwen3-Embedding-0.6B's configuration with random weights (nothing downloaded),
last-token pooling, left padding and Normalize, as sentence-transformers' own folder. `python -m core embed` and
sentence-transformers' `encode` embed the same 1,000 STS-B sentences in separate processes, each timed and its peak
resident memory read from /proc."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT

TEXTS = 1000
QWEN3_EMBEDDING_0_6B = dict(hidden_size=1024, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8,
                            head_dim=128, intermediate_size=3072, max_position_embeddings=32768, rope_theta=1000000,
                            rms_norm_eps=1e-6, tie_word_embeddings=True, vocab_size=151669)

OURS = """
import sys, time
sys.path.insert(0, {root!r})
from core.cli import main
start = time.perf_counter()
main(["embed", "--model", {folder!r}, "--pooling", "default", "--input", {texts!r}, "--output", {out!r}])
seconds = time.perf_counter() - start
peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]
print(seconds, int(peak) / 1024)
"""

THEIRS = """
import time
from sentence_transformers import SentenceTransformer
model = SentenceTransformer({folder!r}, device="cpu")
texts = open({texts!r}, encoding="utf-8").read().split("\\n")[:-1]
start = time.perf_counter()
model.encode_document(texts, batch_size=32)
seconds = time.perf_counter() - start
peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]
print(seconds, int(peak) / 1024)
"""


def build(folder: Path) -> Path:
    """The configuration of Qwen3-Embedding-0.6B with seeded random weights, and the small test tokenizer."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from transformers import AutoModel, Qwen3Config

    sys.path.insert(0, str(ROOT))
    from tests.modern import QWEN_PROMPTS, _bpe

    _bpe(folder, bos=False, padding_side="left")
    torch.manual_seed(0)
    AutoModel.from_config(Qwen3Config(**QWEN3_EMBEDDING_0_6B, pad_token_id=2)).save_pretrained(folder)
    transformer = Transformer(str(folder), max_seq_length=512)
    SentenceTransformer(modules=[transformer, Pooling(1024, "lasttoken"), Normalize()], prompts=QWEN_PROMPTS,
                        device="cpu").save(str(folder))
    return folder


def _run(script: str, **values: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", script.format(root=str(ROOT), **values)], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[-2]), float(out[-1])


def measure(texts: list[str]) -> dict[str, float]:
    """texts/s and peak MB of ours and of sentence-transformers, ours measured first and last (best of the two)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = build(Path(tmp) / "qwen3-0.6b-random")
        source = Path(tmp) / "texts.txt"
        source.write_text("\n".join(texts) + "\n", encoding="utf-8")
        values = {"folder": str(folder), "texts": str(source), "out": str(Path(tmp) / "out.npy")}
        first = _run(OURS, **values)
        theirs = _run(THEIRS, **values)
        last = _run(OURS, **values)
    ours = min(first, last)
    return {"ours_texts_s": len(texts) / ours[0], "ours_peak_mb": max(first[1], last[1]),
            "theirs_texts_s": len(texts) / theirs[0], "theirs_peak_mb": theirs[1]}
