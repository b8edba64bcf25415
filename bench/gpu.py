"""The app's encoder against sentence-transformers on a GPU, as #45 measured it on an H200: all-MiniLM-L6-v2 and a
BERT-base of random weights, sentences and passages of about 160 tokens, batch 32 and 128, each side's best of two
interleaved runs, and how far apart the vectors are. For a machine with CUDA (`python -m bench.gpu`, a few minutes on
one card); `--device cpu --scale 0.01` runs the same comparison small anywhere. It prints its table and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

from bench.common import interleaved_best
from bench.encoding import stsb_passages
from core.data.stsb import stsb_sentences
from core.encoding.encoder import encode
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder

# Texts as #45's table counted them; --scale shrinks them all alike.
SIZES = {"all-MiniLM-L6-v2": (50_000, 8_000), "BERT-base, random weights": (25_000, 4_000)}
BATCHES = (32, 128)


def unique_texts(texts: list[str], count: int) -> list[str]:
    """`count` texts cycling `texts`, each repeat numbered, so no side is helped by a memo of repeated texts."""
    return [texts[i % len(texts)] + ("" if i < len(texts) else f" ({i // len(texts)})") for i in range(count)]


def random_bert(folder: Path) -> Path:
    """A BERT-base of seeded random weights with MiniLM's tokenizer (the same vocabulary) and mean pooling, saved by
    sentence-transformers."""
    from sentence_transformers import SentenceTransformer, models
    from transformers import AutoTokenizer, BertConfig, BertModel

    torch.manual_seed(0)
    (folder / "bert").mkdir(parents=True)
    BertModel(BertConfig()).save_pretrained(folder / "bert")
    AutoTokenizer.from_pretrained(packaged_minilm_folder()).save_pretrained(folder / "bert")
    transformer = models.Transformer(str(folder / "bert"), max_seq_length=256)
    SentenceTransformer(modules=[transformer, models.Pooling(768, "mean")]).save(str(folder / "st"))
    return folder / "st"


def compare(name: str, folder: Path, device: str, scale: float) -> list[str]:
    from sentence_transformers import SentenceTransformer

    ours = load_model(str(folder), device)
    theirs = SentenceTransformer(str(folder), device=device)
    sentences_n, passages_n = (max(8, round(n * scale)) for n in SIZES[name])
    corpus = list(dict.fromkeys(s for split in ("train", "dev", "test") for s in stsb_sentences(split)))
    passages = stsb_passages(ours.tokenizer, count=passages_n)
    rows = []
    for what, texts in ((f"{sentences_n:,} sentences", unique_texts(corpus, sentences_n)),
                        (f"{len(passages):,} passages", passages)):
        encode(ours, texts[:64])
        theirs.encode(texts[:64])
        for batch in BATCHES:
            def run_ours(batch: int = batch, texts: list[str] = texts) -> np.ndarray:
                ours.memo.clear()
                return encode(ours, texts, batch_size=batch).vectors

            ours_s, theirs_s = interleaved_best(run_ours, lambda batch=batch, texts=texts: theirs.encode(
                texts, batch_size=batch), 2)
            gap = float(np.abs(run_ours() - theirs.encode(texts, batch_size=batch)).max())
            rows.append(f"| {name} | {what} | {batch} | {ours_s:.2f} s | {theirs_s:.2f} s | "
                        f"{theirs_s / ours_s:.2f}× | {gap:.1e} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--scale", type=float, default=1.0, help="a share of #45's text counts (0.01 for a try)")
    args = parser.parse_args(argv)
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("No CUDA device here: run it on a machine with a GPU, or with --device cpu --scale 0.01.")
        return 2
    card = torch.cuda.get_device_name(args.device) if args.device.startswith("cuda") else "CPU"
    rows = ["| model | texts | batch | ours | sentence-transformers | ratio | largest difference |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, folder in (("all-MiniLM-L6-v2", packaged_minilm_folder()),
                             ("BERT-base, random weights", random_bert(Path(tmp)))):
            rows += compare(name, Path(folder), args.device, args.scale)
    print(f"{card}; torch {torch.__version__}\n\n" + "\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
