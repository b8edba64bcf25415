from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.cli.options import positive_int
from core.data.objectives import OBJECTIVES
from core.settings import DEVICES
from core.training.options import TrainOptions

DEFAULTS = TrainOptions()


def _learning_rate(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("finetune", help="fine-tune a model on sentence pairs (or train a reranker or a "
                                                    "late-interaction model from it) and save it to the catalog")
    parser.add_argument("--model", required=True, help="catalog id to start from")
    parser.add_argument("--data", required=True, help="'stsb' (STS-B train) or a .csv/.jsonl pairs file")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--objective", choices=OBJECTIVES)
    which.add_argument("--cross-encoder", dest="objective", action="store_const", const="reranker",
                       help="train a reranker (a CrossEncoder) from the model's transformer: --objective reranker")
    which.add_argument("--multi-vector", dest="objective", action="store_const", const="multi-vector",
                       help="train a late-interaction model (a MultiVectorEncoder, ColBERT style) from the model: "
                            "--objective multi-vector")
    parser.add_argument("--epochs", type=positive_int, default=DEFAULTS.epochs)
    parser.add_argument("--batch-size", type=positive_int, default=DEFAULTS.batch_size)
    parser.add_argument("--lr", type=_learning_rate, default=DEFAULTS.learning_rate)
    parser.add_argument("--warmup", type=float, default=DEFAULTS.warmup_ratio, help="share of steps, 0 to <1")
    parser.add_argument("--max-steps", type=positive_int, default=None,
                        help="stop after this many steps (default: the full epochs)")
    parser.add_argument("--seed", type=int, default=DEFAULTS.seed)
    parser.add_argument("--name", default=None, help="the new model's id (default <model>-<data>-<objective>)")
    parser.add_argument("--device", default="cpu", choices=DEVICES)
    parser.set_defaults(run=run_command)


def run_command(args: argparse.Namespace) -> int:
    """Errors (FinetuneError, PairsError, ModelUnavailable) reach core.__main__, which prints one line."""
    from core.data.pairs import read_pairs_file, stsb_train
    from core.training.finetune import RunRequest, run, suggest_name

    options = TrainOptions(epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.lr,
                           warmup_ratio=args.warmup, max_steps=args.max_steps, seed=args.seed)
    pairs = stsb_train() if args.data == "stsb" else read_pairs_file(Path(args.data))
    name = args.name or suggest_name(args.model, args.data, args.objective)
    result = run(RunRequest(args.model, pairs, args.objective, options, name, device=args.device))
    card = result.card
    measured = [key for key in card["after"] if key in card["before"]]  # a multi-vector run's: retrieval alone
    print(json.dumps({"model": result.model_id, "path": str(result.path),
                      "before": {key: card["before"][key] for key in measured},
                      "after": {key: card["after"][key] for key in measured},
                      "steps": card["steps"], "seconds": card["seconds"], "split": card.get("split", "dev")}))
    return 0
