"""Encoding pictures at full size: CLIP ViT-B/32's configuration with seeded random weights (nothing downloaded;
the byte-level test tokenizer of tests/image_text.py), saved by sentence-transformers. Ours reads a folder of files
(each decoded, checked and turned as its EXIF says: core.data.images) and encodes them in batches; the anchor opens
the same files with PIL and calls sentence-transformers' `encode` on the list. Each side's best of interleaved runs."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

from bench.common import ROOT, Row, interleaved_best

PICTURES = 140  # the 14 example pictures, ten times each, written as distinct files
CLIP_VIT_B_32 = {
    "text_config": {"hidden_size": 512, "intermediate_size": 2048, "num_hidden_layers": 12, "num_attention_heads": 8,
                    "max_position_embeddings": 77},
    "vision_config": {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                      "num_attention_heads": 12, "image_size": 224, "patch_size": 32},
    "projection_dim": 512}


def build(folder: Path) -> Path:
    """CLIP ViT-B/32's configuration, random weights, the test tokenizer, 224-pixel crops."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import CLIPConfig, CLIPModel, CLIPProcessor, CLIPTokenizer
    from transformers.convert_slow_tokenizer import bytes_to_unicode
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    characters = list(bytes_to_unicode().values())
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    vocab |= {character: len(vocab) + i for i, character in enumerate(characters)}
    vocab |= {f"{character}</w>": len(vocab) + i for i, character in enumerate(characters)}
    text = {**CLIP_VIT_B_32["text_config"], "vocab_size": len(vocab), "bos_token_id": 0, "eos_token_id": 1,
            "pad_token_id": 1}
    torch.manual_seed(0)
    plain = folder / "plain"
    CLIPModel(CLIPConfig(text_config=text, vision_config=CLIP_VIT_B_32["vision_config"],
                         projection_dim=CLIP_VIT_B_32["projection_dim"])).save_pretrained(plain)
    CLIPProcessor(image_processor=CLIPImageProcessorPil(size={"shortest_edge": 224},
                                                        crop_size={"height": 224, "width": 224}),
                  tokenizer=CLIPTokenizer(vocab=vocab, merges=[])).save_pretrained(plain)
    SentenceTransformer(str(plain), device="cpu").save(str(folder / "st"))
    return folder / "st"


def _pictures(folder: Path) -> list[Path]:
    from core.data.image_examples import EXAMPLES, examples_folder

    source = examples_folder()
    paths = []
    for copy in range(PICTURES // len(EXAMPLES)):
        for example in EXAMPLES:
            path = folder / f"{copy:02d}-{example.file}"
            path.write_bytes((source / example.file).read_bytes())
            paths.append(path)
    return paths


def bench_images(rows: list[Row]) -> None:
    from PIL import Image
    from sentence_transformers import SentenceTransformer

    sys.path.insert(0, str(ROOT))
    from core.data.images import image_scan
    from core.models.image_text import load_image_text

    with tempfile.TemporaryDirectory() as tmp:
        model_folder = build(Path(tmp) / "clip")
        pictures = Path(tmp) / "pictures"
        pictures.mkdir()
        paths = _pictures(pictures)
        ours_model = load_image_text(str(model_folder), "cpu")
        reference = SentenceTransformer(str(model_folder), device="cpu")
        found: dict[str, np.ndarray] = {}

        def ours() -> None:  # as `embed --input FOLDER` reads it: each file read, checked and decoded once
            scan = image_scan(pictures)
            found["ours"] = ours_model.encode_images(scan, batch_size=32)
            scan.corpus()

        def theirs() -> None:
            found["theirs"] = reference.encode([Image.open(path).convert("RGB") for path in sorted(paths)],
                                               batch_size=32)

        ours_s, theirs_s = interleaved_best(ours, theirs, repeats=2)
        assert np.allclose(found["ours"], found["theirs"], atol=1e-5)
    rows.append(Row(f"CLIP ViT-B/32's configuration, random weights: embed {len(paths)} pictures from a folder "
                    "(read, checked, EXIF honoured), `python -m core embed --input FOLDER`'s path",
                    f"{len(paths) / ours_s:.1f} pictures/s",
                    f"sentence-transformers encode of the same files opened by PIL: {len(paths) / theirs_s:.1f} "
                    "pictures/s", f"{theirs_s / ours_s:.2f}× (goal: 1.0× or more)",
                    {"ours_s": ours_s, "theirs_s": theirs_s, "pictures": len(paths)}))
