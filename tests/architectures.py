"""Tiny random-weight model folders of every encoder architecture a user may type in the sidebar, built offline:
a config, seeded random weights (safetensors) and a tokenizer, with the packaged uncased vocabulary where the
architecture's tokenizer reads a WordPiece vocabulary and a small trained one where it needs BPE or Unigram."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import torch

from core.models.conversion import copy_tokenizer
from core.models.packages import packaged_minilm_folder

HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 32, 2, 2, 64, 130
TRAINING_TEXTS = ["The bank by the river.", "She deposited her salary at the bank.", "A man plays the guitar.",
                  "Stocks fell sharply today.", "A kitten sleeps on the rug.", "We had a picnic on the grassy bank.",
                  "You can always bank on your sister to help."] * 20


def _wordpiece(folder: Path, tokenizer_class: str) -> int:
    copy_tokenizer(packaged_minilm_folder(), folder)
    config_file = folder / "tokenizer_config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["tokenizer_class"] = tokenizer_class
    config_file.write_text(json.dumps(config), encoding="utf-8")
    return 30522


def _mpnet_wordpiece(folder: Path) -> int:
    """MPNet reads a WordPiece vocabulary and adds its own <s>, </s>, <pad>, <mask> around it."""
    from transformers import MPNetTokenizerFast

    words = (packaged_minilm_folder() / "vocab.txt").read_text(encoding="utf-8").splitlines()
    tokenizer = MPNetTokenizerFast(vocab={word: i for i, word in enumerate(words)}, model_max_length=128)
    tokenizer.save_pretrained(folder)
    return len(tokenizer)


def _trained(folder: Path, algorithm: str, fast_class: str) -> int:
    """A byte-level BPE (RoBERTa, ModernBERT) or SentencePiece Unigram (XLM-R) tokenizer trained on a few texts,
    wrapping each text in <s> … </s> as those models' own tokenizers do."""
    import transformers
    from tokenizers import ByteLevelBPETokenizer, SentencePieceUnigramTokenizer
    from tokenizers.processors import TemplateProcessing

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    if algorithm == "bpe":
        raw = ByteLevelBPETokenizer()
        raw.train_from_iterator(TRAINING_TEXTS, vocab_size=400, special_tokens=specials)
    else:
        raw = SentencePieceUnigramTokenizer()
        raw.train_from_iterator(TRAINING_TEXTS, vocab_size=200, special_tokens=specials, unk_token="<unk>")
    raw.post_processor = TemplateProcessing(single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
                                            special_tokens=[("<s>", raw.token_to_id("<s>")),
                                                            ("</s>", raw.token_to_id("</s>"))])
    tokenizer = getattr(transformers, fast_class)(tokenizer_object=raw, bos_token="<s>", eos_token="</s>",
                                                  sep_token="</s>", cls_token="<s>", unk_token="<unk>",
                                                  pad_token="<pad>", mask_token="<mask>", model_max_length=128)
    tokenizer.save_pretrained(folder)
    return len(tokenizer)


def _config(name: str, vocab: int):
    import transformers

    common = dict(vocab_size=vocab, hidden_size=HIDDEN, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                  intermediate_size=FFN, max_position_embeddings=POSITIONS)
    if name == "distilbert":
        return transformers.DistilBertConfig(vocab_size=vocab, dim=HIDDEN, n_layers=LAYERS, n_heads=HEADS,
                                             hidden_dim=FFN, max_position_embeddings=POSITIONS)
    if name == "modernbert":
        return transformers.ModernBertConfig(**common, pad_token_id=1, bos_token_id=0, eos_token_id=2, cls_token_id=0,
                                             sep_token_id=2, global_attn_every_n_layers=2, local_attention=16)
    if name in ("roberta", "xlm-roberta"):
        cls = transformers.RobertaConfig if name == "roberta" else transformers.XLMRobertaConfig
        return cls(**common, pad_token_id=1, bos_token_id=0, eos_token_id=2, type_vocab_size=1)
    if name == "mpnet":
        return transformers.MPNetConfig(**common, pad_token_id=1, bos_token_id=0, eos_token_id=2)
    return transformers.BertConfig(**common)


TOKENIZERS: dict[str, Callable[[Path], int]] = {
    "bert": lambda folder: _wordpiece(folder, "BertTokenizer"),
    "distilbert": lambda folder: _wordpiece(folder, "DistilBertTokenizer"),
    "mpnet": _mpnet_wordpiece,
    "roberta": lambda folder: _trained(folder, "bpe", "RobertaTokenizerFast"),
    "xlm-roberta": lambda folder: _trained(folder, "unigram", "XLMRobertaTokenizerFast"),
    "modernbert": lambda folder: _trained(folder, "bpe", "PreTrainedTokenizerFast"),
}
ARCHITECTURES = tuple(TOKENIZERS)


def build(name: str, folder: Path) -> Path:
    """A loadable folder of architecture `name` with seeded random weights."""
    from transformers import AutoModel

    folder.mkdir(parents=True, exist_ok=True)
    vocab = TOKENIZERS[name](folder)
    torch.manual_seed(0)
    AutoModel.from_config(_config(name, vocab)).save_pretrained(folder)
    return folder
