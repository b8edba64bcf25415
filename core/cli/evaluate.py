"""`python -m core evaluate sts|retrieval …`: one JSON object of metrics."""

from __future__ import annotations

import argparse
import json

from core.cli.options import add_model_options, add_prompt_options, chosen_prompt, retrieval_prompts
from core.data.stsb import SPLITS
from core.evaluation.lexical import BASELINES, fit_baseline
from core.evaluation.metrics import DEFAULT_KS, STS_PRIMARY, parse_ks, shown_name
from core.evaluation.quantization import PRECISIONS, RESCORE_MULTIPLIER
from core.evaluation.retrieval import evaluate_lexical, evaluate_task, paraphrase_task, task_vectors
from core.evaluation.sts import correlation, sts_frame
from core.evaluation.variants import Embedded, quantized_row
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
    retrieval.add_argument("--quantize", choices=[p for p in PRECISIONS if p != "float32"],
                           help="store the corpus as int8 or binary codes (binary-rescore: binary search, the top "
                                f"{RESCORE_MULTIPLIER}×k rescored with the float query); adds bytes per vector and "
                                "ms per query")
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
    if args.baseline and args.quantize:
        args.parser.error("--quantize stores a model's vectors at lower precision; a baseline has none")
    task = paraphrase_task(args.split)
    if args.baseline:
        result = evaluate_lexical(fit_baseline(args.baseline, task.corpus), task, ks=args.k)
    else:
        model = load_model(args.model, args.device)
        settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer, device=args.device,
                            truncate_dim=args.truncate_dim)
        queries, corpus = task_vectors(model, task, settings, prompts=retrieval_prompts(model.pipeline, args))
        if args.quantize:
            row = quantized_row(task, Embedded(queries, corpus), args.quantize, args.k)
            print(json.dumps({key.replace(" ", "_"): value for key, value in row.items()}
                             | {"queries": len(task.queries), "corpus": len(task.corpus)}))
            return 0
        result = evaluate_task(task, queries, corpus, ks=args.k)
    print(json.dumps({**{shown_name(key): value for key, value in result.metrics.items()}, **result.counts}))
    return 0
