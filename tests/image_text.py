"""A tiny CLIP with seeded random weights, built offline in a second: a transformers CLIPConfig of width 32, two
layers a tower, 32 × 32 images in 8 × 8 patches, a byte-level CLIPTokenizer with no merges and a CLIPProcessor,
saved by sentence-transformers itself (modalities text and image). Its scores mean nothing: it is for plumbing and
exactness, never a claim about quality. And labelled folders of small drawn images."""

from __future__ import annotations

from pathlib import Path

COLOURS = {"red": (220, 30, 30), "blue": (30, 30, 220), "green": (30, 170, 30)}


def build_clip(folder: Path, *, sentence_transformers: bool = True) -> Path:
    """The tiny CLIP saved to `folder`: by sentence-transformers (modules.json), or as a plain transformers folder."""
    import torch
    from transformers import CLIPConfig, CLIPModel, CLIPProcessor, CLIPTokenizer
    from transformers.convert_slow_tokenizer import bytes_to_unicode
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    characters = list(bytes_to_unicode().values())
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    vocab |= {character: len(vocab) + i for i, character in enumerate(characters)}
    vocab |= {f"{character}</w>": len(vocab) + i for i, character in enumerate(characters)}
    tokenizer = CLIPTokenizer(vocab=vocab, merges=[])
    images = CLIPImageProcessorPil(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    tower = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2}
    config = CLIPConfig(text_config={**tower, "vocab_size": len(vocab), "max_position_embeddings": 77,
                                     "bos_token_id": 0, "eos_token_id": 1, "pad_token_id": 1},
                        vision_config={**tower, "image_size": 32, "patch_size": 8}, projection_dim=16)
    torch.manual_seed(0)
    plain = folder / "plain"
    CLIPModel(config).save_pretrained(plain)
    CLIPProcessor(image_processor=images, tokenizer=tokenizer).save_pretrained(plain)
    if not sentence_transformers:
        return plain
    from sentence_transformers import SentenceTransformer

    SentenceTransformer(str(plain), device="cpu").save(str(folder / "st"))
    return folder / "st"


def draw_folder(folder: Path, per_class: int = 6) -> Path:
    """`per_class` PNGs of a filled circle in each colour, each in its colour's subfolder, the circle moved a pixel
    a picture; every picture differs."""
    from PIL import Image, ImageDraw

    for name, colour in COLOURS.items():
        (folder / name).mkdir(parents=True, exist_ok=True)
        for i in range(per_class):
            image = Image.new("RGB", (48, 40), (255, 255, 255))
            ImageDraw.Draw(image).ellipse((4 + i, 5, 30 + i, 31), fill=colour)
            image.save(folder / name / f"{i}.png")
    return folder


def build_siglip(folder: Path) -> Path:
    """A tiny SigLIP with seeded random weights, built as the tiny CLIP is (width 32, two layers a tower, 32 × 32
    images in 8 × 8 patches), its SiglipTokenizer a sentencepiece unigram vocabulary trained here on the example
    pictures' captions, saved by sentence-transformers itself. SigLIP's tokenizer needs sentencepiece."""
    import sentencepiece as spm
    import torch
    from transformers import SiglipConfig, SiglipModel, SiglipProcessor, SiglipTokenizer
    from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil

    from core.data.image_examples import example_captions

    folder.mkdir(parents=True, exist_ok=True)
    spm.SentencePieceTrainer.train(sentence_iterator=iter(example_captions() * 4), model_prefix=str(folder / "spiece"),
                                   vocab_size=120, model_type="unigram", pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
                                   pad_piece="<pad>", eos_piece="</s>", unk_piece="<unk>", hard_vocab_limit=False,
                                   minloglevel=2)
    tokenizer = SiglipTokenizer(vocab_file=str(folder / "spiece.model"))
    images = SiglipImageProcessorPil(size={"height": 32, "width": 32})
    tower = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2}
    ids = {"pad_token_id": 1, "bos_token_id": 1, "eos_token_id": 1}  # SigLIP pads with </s> and has no start token
    config = SiglipConfig(text_config={**tower, **ids, "vocab_size": tokenizer.vocab_size,
                                       "max_position_embeddings": 64},
                          vision_config={**tower, "image_size": 32, "patch_size": 8})
    torch.manual_seed(0)
    plain = folder / "plain"
    SiglipModel(config).save_pretrained(plain)
    SiglipProcessor(image_processor=images, tokenizer=tokenizer).save_pretrained(plain)
    from sentence_transformers import SentenceTransformer

    SentenceTransformer(str(plain), device="cpu").save(str(folder / "st"))
    return folder / "st"
