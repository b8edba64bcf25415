"""Arguments that several commands share, parsed one way. Adding and parsing them imports nothing heavy; what reads a
loaded model (core.kinds, core.encoding, which import torch) is imported where a command's run calls it."""

from __future__ import annotations

import argparse
from pathlib import Path

from core.settings import DEVICES, POOLINGS, Role


def source(text: str) -> Path | str:
    """An input or output: a store URI as given (core.data.stores), else a path."""
    from core.data.stores import is_store_uri

    return text if is_store_uri(text) else Path(text)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _flag(name: str, side: str) -> str:
    """`--name`, or `--name-a` for side "a" of a command that takes two configurations (compare)."""
    return f"--{name}-{side}" if side else f"--{name}"


def add_model_options(parser: argparse.ArgumentParser, *, required: bool = True, side: str = "") -> None:
    """--model, --pooling (the model's own when left out), --layer and --device; for a `side`, the first three
    suffixed (--model-a …) and no --device, which both sides share."""
    parser.add_argument(_flag("model", side), required=required, help="catalog id, Hugging Face id or local folder")
    parser.add_argument(_flag("pooling", side), choices=POOLINGS, default="default",
                        help="default: the model's own")
    parser.add_argument(_flag("layer", side), type=int, default=None,
                        help="0 is the embedding layer; default the last")
    if not side:
        parser.add_argument("--device", default="auto", choices=DEVICES)


def add_revision_option(parser: argparse.ArgumentParser, *, side: str = "") -> None:
    parser.add_argument(_flag("revision", side), default=None,
                        help="for a model from the Hugging Face hub: the branch, tag or commit to load (default main)")


def add_prompt_options(parser: argparse.ArgumentParser, *, roles: bool, side: str = "") -> None:
    """--prompt-name | --prompt and --truncate-dim; with `roles` (queries and documents), --no-prompts too."""
    which = parser.add_mutually_exclusive_group()
    whose = "each query" if roles else "each text"
    which.add_argument(_flag("prompt-name", side), default=None, help=f"the model's named prompt for {whose}")
    which.add_argument(_flag("prompt", side), default=None, help=f"a literal prompt put before {whose}")
    if roles:
        which.add_argument(_flag("no-prompts", side), action="store_true",
                           help="measure without the model's query and document prompts")
    parser.add_argument(_flag("truncate-dim", side), type=positive_int, default=None,
                        help="keep the first N dimensions (Matryoshka), as sentence-transformers' truncate_dim")


def add_embedding_options(parser: argparse.ArgumentParser) -> None:
    """Every option that shapes the vectors `embed` writes: the model and its revision, prompts, the texts' role,
    --normalize and --max-length (a stored index is checked against the same)."""
    add_model_options(parser)
    add_revision_option(parser)
    add_prompt_options(parser, roles=False)
    parser.add_argument("--role", choices=("document", "query"), default="document",
                        help="embed the texts as documents (encode_document, the default) or as queries "
                             "(encode_query): the model's prompt for that role and, for a sparse model with a "
                             "Router, its route")
    add_vector_options(parser)


def add_vector_options(parser: argparse.ArgumentParser, *, side: str = "") -> None:
    """--normalize and --max-length, which shape the vectors `embed` writes."""
    parser.add_argument(_flag("normalize", side), action="store_true")
    parser.add_argument(_flag("max-length", side), type=positive_int, default=None)


REFUSABLE = ("--pooling", "--layer", "--normalize", "--max-length", "--truncate-dim", "--prompt", "--prompt-name",
             "--no-prompts", "--quantize")


def refuse_inapplicable(model, args: argparse.Namespace) -> None:
    """ValueError with one sentence naming each option given that does not apply to the model's kind (from the kind's
    own list, core.kinds), with the remedy; a layer the model lacks, where layers apply."""
    from core.encoding.encoder import checked_layer
    from core.kinds import kind_of

    kind = kind_of(model)
    given = {flag: getattr(args, flag.removeprefix("--").replace("-", "_"), None) for flag in REFUSABLE}
    refusal = kind.refused(model, given)
    if refusal is not None:
        raise ValueError(refusal)
    if kind.applies.layer:
        checked_layer(model, given["--layer"])


def chosen_prompt(pipeline, args: argparse.Namespace, role: Role) -> str:
    """The literal prompt the options give a text of `role` (the model's own for it when none is named)."""
    from core.encoding.prompts import resolve_prompt

    if getattr(args, "no_prompts", False):
        return ""
    return resolve_prompt(pipeline, role, name=args.prompt_name, text=args.prompt)


def retrieval_prompts(pipeline, args: argparse.Namespace) -> tuple[str, str]:
    """(query, document) prompts: a named or typed prompt is the query's; documents keep the model's own."""
    from core.encoding.prompts import role_prompts

    typed = None if args.prompt is None and args.prompt_name is None else chosen_prompt(pipeline, args, "query")
    return role_prompts(pipeline, use=not args.no_prompts, query=typed)
