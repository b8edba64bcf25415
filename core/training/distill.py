"""A static model distilled from a transformer with model2vec: every entry of the model's own vocabulary is embedded
once (offline), reduced by PCA and weighted, and the table saved beside the fine-tuned models, listed in the catalog
like them. model2vec's `distill` extra pins an older transformers, so model2vec and skeletoken are installed without
their declared dependencies (requirements-nodeps.txt) and run on this project's transformers."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from core.models.building import BUILDING
from core.models.catalog import find_entry, finetuned_entries
from core.models.loading import LoadedModel
from core.training.finetune import FinetuneError, check_name, free_name, read_card, save_model
from core.training.options import DEFAULT_PCA_DIMS

STATIC = "static"  # the card's kind


class DistillError(FinetuneError):
    """A distillation that cannot start or finish; one sentence with the way forward."""


@dataclass(frozen=True)
class Distilled:
    id: str
    path: Path
    seconds: float


def check_distillable(model: LoadedModel, pca_dims: int | None) -> None:
    if model.static:
        raise DistillError(f"{model.model_id} is a static model already; distil from a transformer model.")
    if not (model.folder / "tokenizer.json").is_file():
        raise DistillError(f"{model.model_id} has no vocabulary file (tokenizer.json): model2vec distils a static "
                           "model from each entry of that vocabulary. Choose a model saved with a fast tokenizer.")
    if pca_dims is not None and not 1 <= pca_dims <= model.hidden_size:
        raise DistillError(f"PCA keeps at most the model's {model.hidden_size} dimensions; choose 1 to "
                           f"{model.hidden_size}, or none to keep them all.")


def distill_static(model: LoadedModel, *, pca_dims: int | None = DEFAULT_PCA_DIMS,
                   name: str | None = None) -> Distilled:
    """Distil `model` (its folder, on its device) into a static model saved as `name` (by default
    `<model>-static`, made free)."""
    check_distillable(model, pca_dims)
    name = check_name(name) if name else free_name(f"{Path(model.model_id).name}-{STATIC}")
    from model2vec.distill import distill  # imports torch-heavy code: only when a distillation runs

    start = time.perf_counter()
    # float32 weights: model2vec's default float16 table would also make its own encode average in float16
    with BUILDING:  # model2vec loads the teacher with transformers
        static = distill(model_name=str(model.folder), pca_dims=pca_dims, device=model.device, quantize_to="float32")
    seconds = time.perf_counter() - start
    card = {"base": model.model_id, "kind": STATIC, "data": f"its vocabulary (model2vec, PCA {pca_dims or 'off'})",
            "pca_dims": pca_dims, "seconds": round(seconds, 1), "created": datetime.now(UTC).isoformat()}
    return Distilled(name, save_model(static, name, card), seconds)


def static_models_of(teacher: str) -> list[str]:
    """The static models distilled from `teacher` on this machine, oldest first."""
    cards = {entry.id: read_card(entry.id) for entry in finetuned_entries()}
    return [name for name, card in cards.items() if card.get("kind") == STATIC and card.get("base") == teacher]


def teacher_of(model_id: str) -> str | None:
    """The model a distilled static model came from; None for any other model."""
    if find_entry(model_id).source != "finetuned":
        return None
    card = read_card(model_id)
    return card.get("base") if card.get("kind") == STATIC else None
