"""Texts to token vectors: a MultiVectorEncoder's own `encode_query` / `encode_document` (so its prompts or markers,
query and document lengths, query expansion, skiplist, projection and normalisation are applied as
sentence-transformers applies them), with each kept vector's token as a string, memoised per text and role."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.encoding.encoder import Progress
from core.models.loading import LoadedModel
from core.settings import Role


@dataclass(frozen=True)
class TokenVectors:
    """One text as a late-interaction model scores it: a vector per kept token (in order), each token as the
    tokenizer writes it, which of them the query expansion added and which belong to the prompt or marker, the real
    tokens the skiplist dropped, and whether the text was cut at the role's length."""

    tokens: tuple[str, ...]
    vectors: np.ndarray  # (kept tokens, width) float32, read-only
    expansion: np.ndarray  # bool per kept token
    prompt: np.ndarray  # bool per kept token
    dropped: tuple[str, ...]
    truncated: bool

    @property
    def nbytes(self) -> int:
        """What the memo counts: the vectors (the strings are small beside them)."""
        return int(self.vectors.nbytes)

    @property
    def typed(self) -> np.ndarray:
        """Kept tokens that come from the text itself or its special tokens: neither expansion nor prompt."""
        return ~(self.expansion | self.prompt)


def _task(role: Role) -> str:
    return "query" if role == "query" else "document"


def role_length(model: LoadedModel, role: Role) -> int:
    pipeline = model.late_pipeline
    return pipeline.query_length if role == "query" else pipeline.document_length


def _encoded(model: LoadedModel, texts: list[str], role: Role, batch_size: int) -> list[dict]:
    """encode_query / encode_document's own per-text outputs before they are cut to the scored tokens (their modules
    and their arithmetic; a batch of other texts pads differently, which moves a value by float rounding alone)."""
    encode = model.multivector.encode_query if role == "query" else model.multivector.encode_document
    return encode(texts, batch_size=batch_size, output_value=None, show_progress_bar=False)


def _token_vectors(model: LoadedModel, output: dict, truncated: bool, skipped: frozenset[int]) -> TokenVectors:
    kept = output["attention_mask"].bool().cpu()
    vectors = output["token_embeddings"][kept.to(output["token_embeddings"].device)].float().cpu().numpy()
    ids = output["input_ids"].cpu().tolist()
    if len(ids) != len(kept):
        # a token pooling in the model's own pipeline merged the tokens: its vectors stand for groups of them
        count = len(vectors)
        return _frozen(tuple(f"⟨pooled {i + 1}⟩" for i in range(count)), vectors, np.zeros(count, bool),
                       np.zeros(count, bool), (), truncated)
    keep = kept.numpy()
    expansion = output.get("query_expansion_positions")
    expanded = np.zeros(len(ids), bool) if expansion is None else expansion.cpu().numpy().astype(bool)
    prompt_length = int(output.get("prompt_length", 0))
    prompt = np.array([i < prompt_length and token not in _framing(model) for i, token in enumerate(ids)], bool)
    tokens = tuple(model.tokenizer.convert_ids_to_tokens([token for token, k in zip(ids, keep) if k]))
    dropped = tuple(model.tokenizer.convert_ids_to_tokens([token for token, k in zip(ids, keep)
                                                           if not k and token in skipped]))
    return _frozen(tokens, vectors, expanded[keep], prompt[keep], dropped, truncated)


def _framing(model: LoadedModel) -> set[int]:
    """The tokens the tokenizer puts around every text ([CLS], [SEP], <s> …), not a prompt's or marker's."""
    tokenizer = model.tokenizer
    return {getattr(tokenizer, f"{name}_token_id") for name in ("bos", "cls", "sep", "eos", "pad")} - {None}


def skipped_ids(model: LoadedModel, side: str) -> frozenset[int]:
    """The ids the model's skiplist drops on this side (a word that is no single token of the vocabulary drops
    nothing, as MultiVectorMask resolves it)."""
    pipeline = model.late_pipeline
    if side not in pipeline.skiplist_tasks:
        return frozenset()
    tokenizer = model.tokenizer
    ids = tokenizer.convert_tokens_to_ids(list(pipeline.skiplist))
    return frozenset(i for word, i in zip(pipeline.skiplist, ids)
                     if i != tokenizer.unk_token_id or word == tokenizer.unk_token)


def _frozen(tokens: tuple[str, ...], vectors: np.ndarray, expansion: np.ndarray, prompt: np.ndarray,
            dropped: tuple[str, ...], truncated: bool) -> TokenVectors:
    for array in (vectors, expansion, prompt):
        array.flags.writeable = False
    return TokenVectors(tokens, np.ascontiguousarray(vectors, np.float32), expansion, prompt, dropped, truncated)


def _token_counts(model: LoadedModel, texts: list[str], role: Role) -> list[int]:
    """Each text's token count with the role's prompt, untruncated: the tokenizer's own."""
    prompt = role_prompt(model, role)
    return [len(ids) for ids in model.tokenizer([prompt + text for text in texts], truncation=False)["input_ids"]]


def role_prompt(model: LoadedModel, role: Role) -> str:
    """The prompt or marker encode_query (role "query") or encode_document (any other role) puts before a text."""
    prompts = model.late_pipeline.prompts
    if role == "query":
        return prompts.get("query", "")
    return next((prompts[name] for name in ("document", "passage", "corpus") if name in prompts), "")


def encode_multivector(model: LoadedModel, texts: Sequence[str], *, role: Role = "document", batch_size: int = 32,
                       progress: Progress | None = None) -> list[TokenVectors]:
    """Each text's token vectors as `encode_query` (role "query") or `encode_document` (any other role) gives them,
    with their tokens; texts seen before are not encoded again."""
    texts = list(texts)
    side: Role = "query" if role == "query" else "document"
    found: dict[int, TokenVectors] = {}
    todo: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        hit = model.memo.get(("late", side, text))
        if hit is None:
            todo.setdefault(text, []).append(i)
        else:
            found[i] = hit[0]
    if todo:
        pending = list(todo)
        counts = _token_counts(model, pending, side)
        # longest first by the tokenizer's count, one batch a call: every batch pads as little as it can
        order = sorted(range(len(pending)), key=lambda u: -counts[u])
        skipped, limit = skipped_ids(model, side), role_length(model, side)
        for start in range(0, len(order), batch_size):
            batch = [pending[u] for u in order[start:start + batch_size]]
            for u, output in zip(order[start:start + batch_size], _encoded(model, batch, side, batch_size)):
                vectors = _token_vectors(model, output, counts[u] > limit, skipped)
                model.memo.put(("late", side, pending[u]), vectors, vectors.truncated)
                for i in todo[pending[u]]:
                    found[i] = vectors
            if progress is not None:
                progress(min(start + batch_size, len(order)), len(order))
    return [found[i] for i in range(len(texts))]


TOKEN_USES = {"typed": "from the text", "special": "the tokenizer's own ([CLS], [SEP] …)",
              "prompt": "the role's prompt or marker", "expansion": "query expansion",
              "dropped": "dropped by the skiplist", "unscored": "padding, not scored"}


@dataclass(frozen=True)
class TokenUses:
    """Every token the model reads for one text in one role, in order, with its use: what becomes of it (a key of
    TOKEN_USES); `vectors` is how many vectors the text keeps (fewer than its scored tokens where the model pools
    them)."""

    tokens: tuple[str, ...]
    uses: tuple[str, ...]
    vectors: int

    @property
    def scored(self) -> int:
        """Tokens that get a vector before any token pooling."""
        return sum(use not in ("dropped", "unscored") for use in self.uses)


def token_uses(model: LoadedModel, text: str, *, role: Role = "document") -> TokenUses:
    """One text's tokens as encode_query (role "query") or encode_document reads it: its prompt or marker, the
    tokenizer's special tokens, the query expansion, and what the skiplist drops."""
    side: Role = "query" if role == "query" else "document"
    output = _encoded(model, [text], side, 1)[0]
    ids = output["input_ids"].cpu().tolist()
    expansion = output.get("query_expansion_positions")
    expanded = [False] * len(ids) if expansion is None else expansion.cpu().bool().tolist()
    prompt_length, framing, skipped = int(output.get("prompt_length", 0)), _framing(model), skipped_ids(model, side)
    pad = model.tokenizer.pad_token_id

    def use(position: int, token: int) -> str:
        if expanded[position]:
            return "expansion"
        if token in skipped:
            return "dropped"
        if token == pad:
            return "unscored"
        if token in framing:
            return "special"
        return "prompt" if position < prompt_length else "typed"

    return TokenUses(tuple(model.tokenizer.convert_ids_to_tokens(ids)),
                     tuple(use(i, token) for i, token in enumerate(ids)),
                     int(output["attention_mask"].bool().sum()))
