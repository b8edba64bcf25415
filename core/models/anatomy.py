"""A loaded model's architecture facts, for the home and model pages."""

from __future__ import annotations

import pandas as pd
import torch

from core.models.catalog import LATE
from core.models.loading import LoadedModel


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
        "default pooling": model.pipeline.pooling_label + (" + normalize" if model.normalizes else ""),
        **({"vector": f"sparse, {model.dimensions:,} dimensions"
                      + (" (one per vocabulary entry)" if model.sparse_pipeline.terms else ""),
            "similarity": model.sparse_pipeline.similarity} if model.kind == "sparse" else {}),
        **(_late_facts(model) if model.kind == LATE else {}),
        "prompts": ", ".join(name for name, text in model.pipeline.prompts.items() if text) or "none",
        "special tokens": ", ".join(tokenizer.all_special_tokens),
        "device": model.device,
    }


def _late_facts(model: LoadedModel) -> dict[str, object]:
    pipeline = model.late_pipeline
    return {"vector": f"one {pipeline.width}-dimension vector per kept token (late interaction)",
            "similarity": pipeline.similarity,
            "query length": f"{pipeline.query_length} tokens" + (
                f", expanded to {pipeline.expansion_tokens} ({pipeline.expansion['strategy']})"
                if pipeline.expansion else ", not expanded"),
            "document length": f"{pipeline.document_length} tokens",
            "skiplist": (f"{len(pipeline.skiplist)} tokens dropped from {', '.join(pipeline.skiplist_tasks)}s"
                         if pipeline.skiplist else "none"),
            **({"token pooling": pipeline.token_pooling} if pipeline.token_pooling else {})}


def facts_frame(facts: dict[str, object]) -> pd.DataFrame:
    """The facts as a one-column table of display strings (integers with thousands separators)."""
    values = [f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v) for v in facts.values()]
    return pd.DataFrame({"value": values}, index=pd.Index(list(facts), name="fact"))


def parameter_breakdown(model: LoadedModel) -> pd.DataFrame:
    """Parameters and share of the total for the embeddings, each transformer layer, the pooler, any Dense head.

    The rows add up to the whole network (plus the Dense head); a module holding a list of layers is
    split into one row per layer.
    """
    rows: list[tuple[str, int]] = []
    for name, child in model.network.named_children():
        stacks = [(name, child)] if isinstance(child, torch.nn.ModuleList) else \
            [(n, m) for n, m in child.named_children() if isinstance(m, torch.nn.ModuleList)]
        if not stacks:
            rows.append((name, count_parameters(child)))
            continue
        for _, stack in stacks:
            rows.extend((f"layer {i + 1}", count_parameters(layer)) for i, layer in enumerate(stack))
        rest = count_parameters(child) - sum(count_parameters(stack) for _, stack in stacks)
        if rest:
            rows.append((f"{name} (outside the layers)", rest))
    loose = sum(p.numel() for p in model.network.parameters(recurse=False))
    if loose:
        rows.append(("network (top level)", loose))
    if model.head is not None:
        rows.append(("Dense head (sentence-transformers)", count_parameters(model.head)))
    if model.kind == LATE:  # the modules after the transformer: a projection of each token vector, say
        rows.extend((f"{type(module).__name__} of the token vectors (sentence-transformers)", count_parameters(module))
                    for module in model.multivector if module is not model.late_pipeline.transformer
                    and count_parameters(module))
    if model.kind == "sparse":
        whole = model.sparse_pipeline.transformer.auto_model
        shared = {id(p) for p in model.network.parameters()}  # a masked LM's decoder shares the word embeddings
        rows.append(("masked-LM head (beyond the shared word embeddings)",
                     sum(p.numel() for p in whole.parameters() if id(p) not in shared)))
    table = pd.DataFrame(rows, columns=["module", "parameters"])
    table["share"] = table["parameters"] / table["parameters"].sum()
    return table


def sentence_transformers_modules(model: LoadedModel) -> list[dict[str, object]]:
    """The sentence-transformers modules in order, with what each one does; empty for plain checkpoints."""
    if not model.pipeline.described:
        return []
    return [{"index": i, "module": stage.module_type, "detail": stage.detail}
            for i, stage in enumerate(model.pipeline.stages)]
