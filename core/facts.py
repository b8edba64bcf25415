"""A loaded model's architecture facts, for the home and model pages."""

from __future__ import annotations

from core.models import LoadedModel


def count_parameters(module) -> int:
    return sum(p.numel() for p in module.parameters())


def model_facts(model: LoadedModel) -> dict[str, object]:
    config = model.network.config
    tokenizer = model.tokenizer
    return {
        "model": model.model_id,
        "trained": not model.entry.untrained,
        "architecture": type(model.network).__name__,
        "layers": model.num_layers,
        "hidden size": model.hidden_size,
        "FFN size": getattr(config, "intermediate_size", None),
        "attention heads": getattr(config, "num_attention_heads", None),
        "parameters": count_parameters(model.network),
        "vocabulary size": len(tokenizer),
        "maximum positions": model.max_positions,
        "default max length": model.max_length,
        "default pooling": model.default_pooling + (" + normalize" if model.normalizes else ""),
        "special tokens": ", ".join(tokenizer.all_special_tokens),
        "device": model.device,
    }
