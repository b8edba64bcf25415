"""How one configuration (a model and its settings) is named in a figure's title, the same on every page and in the
notebook (core.notebook): the model, and what shapes its scores, asked of its kind."""

from __future__ import annotations

from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings, layer_used


def configuration_title(settings: Settings, model: LoadedModel) -> str:
    """"model · pooling · layer N" for a model whose layer can be chosen (a dense one); else the kind and the model's
    own similarity (a sparse model's with its pooling)."""
    kind = kind_of(model)
    if kind.applies.layer:
        layer = layer_used(settings.layer, model.num_layers)
        last = " (last)" if layer == model.num_layers else ""
        return f"{model.model_id} · {settings.pooling} pooling · layer {layer}{last}"
    if kind.token_vectors:
        return f"{model.model_id} · {kind.name} · {kind.score_name(model)}"
    return f"{model.model_id} · {kind.name}, {model.default_pooling} · {kind.score_name(model)}"
