"""A reranker loaded as sentence-transformers loads it: a CrossEncoder, which reads a query and a text together and
gives one score (from the catalog, a local folder, or a hub id when downloads are allowed). Any other kind of model
asked for as a reranker is refused with the sentence that says what it is."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from core.models.catalog import CatalogEntry, ModelKind, ModelUnavailable
from core.models.devices import resolve_device
from core.models.in_memory import keep_track
from core.models.loading import refusing_code, weights_fingerprint
from core.models.quiet import quiet_transformers
from core.models.sources import resolve


@dataclass
class LoadedReranker:
    model_id: str
    entry: CatalogEntry
    folder: Path
    cross: Any  # sentence_transformers.CrossEncoder
    fingerprint: str
    device: str

    kind: ClassVar[ModelKind] = "reranker"

    @property
    def max_length(self) -> int:
        return int(self.cross.max_seq_length)


def load_reranker(model_id: str, device: str = "auto", revision: str | None = None) -> LoadedReranker:
    quiet_transformers()
    resolved = resolve(model_id, revision)
    if resolved.kind != "reranker":
        raise ModelUnavailable(f"'{model_id}' is a {resolved.kind} model, which embeds texts one by one; a reranker "
                               "is a CrossEncoder (train one on Fine-tune, or type a CrossEncoder's folder).")
    from sentence_transformers import CrossEncoder

    target = resolve_device(device)
    cross = refusing_code(model_id, lambda: CrossEncoder(str(resolved.folder), device=target, local_files_only=True,
                                                         trust_remote_code=False))
    cross.eval()
    return keep_track(LoadedReranker(model_id, resolved.entry, resolved.folder, cross,
                                     weights_fingerprint(resolved.folder), target))
