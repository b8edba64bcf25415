"""Texts to sparse vectors: a SparseEncoder's own `encode` (so every module, Router route and prompt is applied as
sentence-transformers applies them in `encode_query` and `encode_document`), kept sparse as scipy CSR rows and
memoised per text. A sparse corpus is never held as a dense vocabulary-wide matrix (7,977 STS-B texts would take
974 MB as float32 at 30,522 dimensions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import torch

from core.encoding.encoder import Progress, prompt_tokens_checked, tokenize
from core.models.loading import LoadedModel
from core.settings import Role

ROW = np.dtype([("index", "<i4"), ("value", "<f4")])  # one memoised row: its active dimensions and their weights
CHUNK_BATCHES = 8  # batches encoded per call, so that progress moves


@dataclass
class SparseEmbeddings:
    """Rows in input order, (texts, vocabulary), and the indices of texts cut at the token `limit`; `notices` as
    the dense encoder gives them (none so far)."""

    matrix: sp.csr_matrix
    truncated: list[int]
    limit: int
    prompt_tokens: int
    notices: list[str] = field(default_factory=list)


def _task(role: Role) -> str | None:
    """The `task` encode_query and encode_document pass (a Router routes by it); plain `encode` passes none."""
    return None if role == "text" else role


def _rows(tensor: torch.Tensor, count: int, width: int) -> sp.csr_matrix:
    coo = tensor.coalesce().cpu() if tensor.is_sparse else tensor.cpu().to_sparse().coalesce()
    rows, cols = coo.indices().numpy()
    return sp.csr_matrix((coo.values().numpy().astype(np.float32), (rows, cols)), shape=(count, width))


def _encoded(model: LoadedModel, texts: list[str], role: Role, prompt: str, limit: int,
             batch_size: int) -> sp.csr_matrix:
    options = {} if limit == model.max_length else {"processing_kwargs": {"text": {"max_length": limit}}}
    tensor = model.sparse.encode(texts, prompt=prompt, task=_task(role), batch_size=batch_size,
                                 convert_to_sparse_tensor=True, save_to_cpu=True, **options)
    return _rows(tensor, len(texts), model.dimensions)


def _packed(row: sp.csr_matrix) -> np.ndarray:
    packed = np.empty(row.nnz, ROW)
    packed["index"], packed["value"] = row.indices, row.data
    return packed


def encode_sparse(model: LoadedModel, texts: Sequence[str], *, role: Role = "document", prompt: str = "",
                  max_length: int | None = None, batch_size: int = 32,
                  progress: Progress | None = None) -> SparseEmbeddings:
    """Each text's sparse vector (after `prompt`, through the route of `role`), as sentence-transformers' encode
    gives it; texts seen before are not encoded again."""
    texts = list(texts)
    limit = model.token_limit(max_length)
    prompt_count = prompt_tokens_checked(model, prompt, limit)
    found: dict[int, np.ndarray] = {}
    cut = [False] * len(texts)
    todo: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        hit = model.memo.get(("sparse", role, limit, prompt, text))
        if hit is None:
            todo.setdefault(text, []).append(i)
        else:
            found[i], cut[i] = hit
    if todo:
        tokens, truncated = tokenize(model, [prompt + text for text in todo], limit)
        # longest first over all the texts, not only within each chunk: every chunk pads little (a masked LM's logits
        # are vocabulary-wide for every token, padding included)
        order = sorted(range(len(todo)), key=lambda u: -len(tokens[u]["input_ids"]))
        pending = list(todo)
        unique, truncated = [pending[u] for u in order], [truncated[u] for u in order]
        step = batch_size * CHUNK_BATCHES
        for start in range(0, len(unique), step):
            chunk = unique[start:start + step]
            rows = _encoded(model, chunk, role, prompt, limit, batch_size)
            for j, text in enumerate(chunk):
                packed = _packed(rows[j])
                model.memo.put(("sparse", role, limit, prompt, text), packed, truncated[start + j])
                for i in todo[text]:
                    found[i], cut[i] = packed, truncated[start + j]
            if progress is not None:
                progress(min(start + step, len(unique)), len(unique))
    indptr = np.cumsum([0, *(len(found[i]) for i in range(len(texts)))])
    packed_all = np.concatenate([found[i] for i in range(len(texts))]) if texts else np.empty(0, ROW)
    matrix = sp.csr_matrix((np.ascontiguousarray(packed_all["value"]), np.ascontiguousarray(packed_all["index"]),
                            indptr), shape=(len(texts), model.dimensions))
    return SparseEmbeddings(matrix, [i for i, c in enumerate(cut) if c], limit, prompt_count)
