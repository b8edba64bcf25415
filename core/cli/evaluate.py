"""`python -m core evaluate sts|retrieval …`: one JSON object of metrics."""

from __future__ import annotations

import argparse
import json

from core.cli.options import add_model_options, add_prompt_options, chosen_prompt, retrieval_prompts
from core.data.stsb import SPLITS
from core.evaluation.lexical import BASELINES, fit_baseline
from core.evaluation.metrics import DEFAULT_KS, STS_PRIMARY, parse_ks, shown_name
from core.evaluation.retrieval import evaluate_embeddings, evaluate_lexical, paraphrase_task
from core.evaluation.sts import correlation, sts_frame
from core.models.loading import load_model
from core.settings import Settings


def k_list(text: str) -> list[int]:
    try:
        return parse_ks(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="STS-B correlation or paraphrase retrieval, as JSON")
    tasks = parser.add_subparsers(dest="task", required=True, parser_class=type(parser))
    sts = tasks.add_parser("sts", help="Spearman/Pearson of cosine similarity against STS-B gold scores")
    add_model_options(sts)
    add_prompt_options(sts, roles=True)
    sts.add_argument("--split", choices=SPLITS, required=True)
    sts.set_defaults(run=run_sts)
    retrieval = tasks.add_parser("retrieval", help="Recall@k, MRR@10, nDCG@10 on the STS-B paraphrase task")
    add_model_options(retrieval, required=False)
    add_prompt_options(retrieval, roles=True)
    retrieval.add_argument("--baseline", choices=list(BASELINES))
    retrieval.add_argument("--split", choices=SPLITS, required=True)
    retrieval.add_argument("--k", type=k_list, default=list(DEFAULT_KS), help="e.g. 1,5,10,20,50")
    retrieval.set_defaults(run=run_retrieval, parser=retrieval)


def run_sts(args: argparse.Namespace) -> int:
    model = load_model(args.model, args.device)
    frame = sts_frame(model, args.split, pooling=args.pooling, layer=args.layer,
                      prompt=chosen_prompt(model.pipeline, args, "text"), truncate_dim=args.truncate_dim)
    scores = correlation(frame)
    print(json.dumps({"spearman": scores[STS_PRIMARY], "pearson": scores["pearson_cosine"], "pairs": len(frame)}))
    return 0


def run_retrieval(args: argparse.Namespace) -> int:
    if (args.model is None) == (args.baseline is None):
        args.parser.error("give either --model ID --pooling P or --baseline tfidf|bow")
    task = paraphrase_task(args.split)
    if args.baseline:
        result = evaluate_lexical(fit_baseline(args.baseline, task.corpus), task, ks=args.k)
    else:
        model = load_model(args.model, args.device)
        settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer, device=args.device,
                            truncate_dim=args.truncate_dim)
        result = evaluate_embeddings(model, task, settings, ks=args.k, prompts=retrieval_prompts(model.pipeline, args))
    print(json.dumps({**{shown_name(key): value for key, value in result.metrics.items()}, **result.counts}))
    return 0
