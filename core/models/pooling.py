"""The one table of pooling modes: each of sentence-transformers' `Pooling` modes under this project's name, with
how the explanation splits it and the sidebar's help. Pooling itself is sentence-transformers' own module, so every
mode (several at once, prompt tokens left out, left padding) is exactly what it computes; the encoder only hands it
any layer's token states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

# torch in annotations only, so that the table (core.settings' POOLINGS, the command line's --pooling choices)
# imports nothing heavy
if TYPE_CHECKING:
    import torch

Split = Literal["mean", "sqrt", "max"]

STModule: TypeAlias = Any  # a sentence-transformers module (Pooling, Dense …), read by its attributes


@dataclass(frozen=True)
class PoolingMode:
    """`split`: how the token-pair explanation divides a score pooled this way exactly, None where it cannot."""

    name: str
    st_name: str
    split: Split | None
    help: str


MODES: dict[str, PoolingMode] = {mode.name: mode for mode in (
    PoolingMode("mean", "mean", "mean", "the average of the token vectors"),
    PoolingMode("cls", "cls", None, "the first token's vector ([CLS])"),
    PoolingMode("max", "max", "max", "the largest value of each dimension over the tokens"),
    PoolingMode("mean_sqrt_len", "mean_sqrt_len_tokens", "sqrt", "the sum of the token vectors over √tokens"),
    PoolingMode("weightedmean", "weightedmean", None, "a mean weighted by position (later tokens count more)"),
    PoolingMode("lasttoken", "lasttoken", None, "the last real token's vector, as decoder embedders pool"),
)}
DEFAULT = "default"
CHOICES: tuple[str, ...] = (DEFAULT, *MODES)
_BY_ST_NAME = {mode.st_name: mode for mode in MODES.values()}


class UnknownPooling(ValueError):
    """A pooling name that is not in the table; the message lists the ones that are."""


def mode_named(name: str) -> PoolingMode:
    try:
        return MODES[name]
    except KeyError:
        raise UnknownPooling(f"Unknown pooling {name!r}; choose one of {', '.join(CHOICES)}.") from None


def our_names(st_mode: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """This project's names for a sentence-transformers `pooling_mode` (one mode, or several concatenated)."""
    modes = (st_mode,) if isinstance(st_mode, str) else tuple(st_mode)
    unknown = [mode for mode in modes if mode not in _BY_ST_NAME]
    if unknown:
        raise UnknownPooling(f"The model pools by {', '.join(unknown)}, which this app cannot reproduce.")
    return tuple(_BY_ST_NAME[mode].name for mode in modes)


def pooling_module(names: tuple[str, ...], dims: int, *, include_prompt: bool = True) -> torch.nn.Module:
    """sentence-transformers' `Pooling` for these modes (concatenated in its order when several)."""
    from sentence_transformers.sentence_transformer.modules import Pooling

    modes = [mode_named(name).st_name for name in names]
    return Pooling(dims, modes[0] if len(modes) == 1 else modes, include_prompt=include_prompt)


def pool(module: STModule, states: torch.Tensor, mask: torch.Tensor, prompt_length: int = 0) -> torch.Tensor:
    """Pool `states` (batch, tokens, dims) under `mask` (batch, tokens) with a `Pooling` module; `prompt_length`
    is how many leading tokens of each text are the prompt (the module leaves them out where it says so)."""
    features: dict[str, torch.Tensor | int] = {"token_embeddings": states, "attention_mask": mask}
    if prompt_length:
        features["prompt_length"] = prompt_length
    return module(features)["sentence_embedding"]
