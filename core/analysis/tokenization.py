"""What a tokenizer does to a text: pieces, ids, masks, offsets, special tokens, and unknown characters."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

SPECIAL_ROLES = {
    "cls_token": "starts every input; its final state is the sentence vector under CLS pooling",
    "sep_token": "ends a text and separates the two texts of a pair",
    "pad_token": "fills shorter texts up to the batch length; the attention mask hides it",
    "unk_token": "stands for anything the vocabulary cannot spell",
    "mask_token": "the blank the model learned to fill in during masked-language pre-training",
    "bos_token": "begins a sequence",
    "eos_token": "ends a sequence",
}


@dataclass(frozen=True)
class Tokenized:
    """`table` has the tokens the model sees (cut at the limit); `length` counts the whole text's tokens."""

    table: pd.DataFrame
    decoded: str
    normalized: str | None
    length: int

    @property
    def truncated(self) -> bool:
        return self.length > len(self.table)


def tokenize_text(tokenizer, text: str, max_length: int) -> Tokenized:
    """One row per token (cut at `max_length` tokens): token, id, masks, character offsets, source span."""
    enc = tokenizer(text, truncation=True, max_length=max_length, return_overflowing_tokens=True,
                    return_offsets_mapping=True, return_special_tokens_mask=True)
    ids = enc["input_ids"][0]
    offsets = enc["offset_mapping"][0]
    special = enc["special_tokens_mask"][0]
    table = pd.DataFrame({
        "token": tokenizer.convert_ids_to_tokens(ids),
        "id": ids,
        "attention mask": enc["attention_mask"][0],
        "token type id": enc["token_type_ids"][0] if "token_type_ids" in enc else [0] * len(ids),
        "start": [start for start, _ in offsets],
        "end": [end for _, end in offsets],
        "source text": ["" if s else text[start:end] for (start, end), s in zip(offsets, special)],
        "special": [bool(s) for s in special],
    })
    table.index.name = "position"
    length = len(tokenizer(text, truncation=False, verbose=False)["input_ids"])
    return Tokenized(table, tokenizer.decode(ids), normalized_text(tokenizer, text), length)


def normalized_text(tokenizer, text: str) -> str | None:
    """The text after the tokenizer's normaliser (e.g. lowercasing and accent stripping), if it has one."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    normalizer = getattr(backend, "normalizer", None) if backend is not None else None
    return normalizer.normalize_str(text) if normalizer is not None else None


def special_tokens(tokenizer) -> pd.DataFrame:
    """Each special token with its role name, id, and what it is for."""
    rows = []
    for role, token in tokenizer.special_tokens_map.items():
        if isinstance(token, str):
            rows.append({"role": role, "token": token, "id": tokenizer.convert_tokens_to_ids(token),
                         "what it is for": SPECIAL_ROLES.get(role, "")})
    return pd.DataFrame(rows, columns=["role", "token", "id", "what it is for"])


def unknown_spans(tokenized: Tokenized, unk_token: str | None) -> list[str]:
    """The pieces of the typed text that the tokenizer could only write as the unknown token."""
    table = tokenized.table
    return [] if unk_token is None else table.loc[table["token"] == unk_token, "source text"].tolist()
