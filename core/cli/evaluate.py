"""`python -m core evaluate sts|retrieval …`: one JSON object of metrics."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from core.analysis.baselines import BASELINES, Baseline
from core.cli.options import (
    add_model_options,
    add_prompt_options,
    add_revision_option,
    chosen_prompt,
    positive_int,
    refuse_inapplicable,
    retrieval_prompts,
)
from core.data.splits import SPLITS
from core.evaluation.cutoffs import DEFAULT_KS, parse_ks
from core.evaluation.precisions import PRECISIONS, RESCORE_MULTIPLIER
from core.settings import Settings

if TYPE_CHECKING:
    from core.evaluation.retrieval import RetrievalTask, Scored, TaskResult
    from core.models.loading import LoadedModel


def k_list(text: str) -> list[int]:
    try:
        return parse_ks(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def _zero_shot(args: argparse.Namespace) -> int:
    from core.cli.images import zero_shot

    return zero_shot(args)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="STS-B correlation, paraphrase retrieval or zero-shot "
                                                    "classification of images, as JSON")
    tasks = parser.add_subparsers(dest="task", required=True, parser_class=type(parser))
    zero = tasks.add_parser("zero-shot", help="a model of images and texts (CLIP, SigLIP) classifying labelled images "
                                              "by prompts of their labels; the modality gap, and a linear probe")
    add_model_options(zero)
    add_revision_option(zero)
    zero.add_argument("--input", required=True, help="a folder of images whose subfolders are their labels, a .zip "
                                                      "of one, or a CSV/Parquet file with 'image' and 'label' columns")
    zero.add_argument("--template", default=None, help="each class's prompt, {label} its name (default: 'a photo "
                                                       "of a {label}')")
    zero.add_argument("--batch-size", type=positive_int, default=32)
    zero.set_defaults(run=_zero_shot)
    sts = tasks.add_parser("sts", help="Spearman/Pearson of cosine similarity against STS-B gold scores")
    add_model_options(sts)
    add_revision_option(sts)
    add_prompt_options(sts, roles=True)
    sts.add_argument("--split", choices=SPLITS, required=True)
    sts.set_defaults(run=run_sts)
    retrieval = tasks.add_parser("retrieval", help="Recall@k, MRR@10, nDCG@10 on the STS-B paraphrase task")
    add_model_options(retrieval, required=False)
    add_revision_option(retrieval)
    add_prompt_options(retrieval, roles=True)
    retrieval.add_argument("--baseline", choices=list(BASELINES))
    retrieval.add_argument("--rerank", default=None, metavar="RERANKER",
                           help="reorder the first stage's top N with this reranker (a CrossEncoder) and score that")
    retrieval.add_argument("--rerank-top", type=positive_int, default=10, metavar="N",
                           help="how many of the first stage's texts the reranker reads per query (default 10)")
    retrieval.add_argument("--hybrid", default=None, metavar="MODEL_OR_BASELINE",
                           help="fuse the first stage's list with this model's (dense or sparse) or baseline's "
                                "(tfidf, bow, bm25) by reciprocal rank fusion, and score the fused list")
    retrieval.add_argument("--split", choices=SPLITS, required=True)
    retrieval.add_argument("--k", type=k_list, default=list(DEFAULT_KS), help="e.g. 1,5,10,20,50")
    retrieval.add_argument("--quantize", choices=[p for p in PRECISIONS if p != "float32"],
                           help="store the corpus as int8 or binary codes (binary-rescore: binary search, the top "
                                f"{RESCORE_MULTIPLIER}×k rescored with the float query); adds bytes per vector and "
                                "ms per query")
    retrieval.set_defaults(run=run_retrieval, parser=retrieval)


def run_sts(args: argparse.Namespace) -> int:
    from core.analysis.ranking import similarity_column
    from core.evaluation.rerank import cross_correlation, cross_sts
    from core.evaluation.sts import correlation, sts_frame
    from core.models.loading import NotAnEmbedder, load_model
    from core.models.reranker import load_reranker

    try:
        model = load_model(args.model, args.device, args.revision)
    except NotAnEmbedder:  # a reranker scores each pair read together, as CrossEncoderCorrelationEvaluator does
        reranker = load_reranker(args.model, args.device, args.revision)
        refuse_inapplicable(reranker, args)
        frame = cross_sts(reranker, args.split)
        scores = cross_correlation(frame)
        print(json.dumps({"spearman": scores["spearman_reranker"], "pearson": scores["pearson_reranker"],
                          "pairs": len(frame), "similarity": "reranker"}))
        return 0
    refuse_inapplicable(model, args)
    frame = sts_frame(model, args.split, pooling=args.pooling, layer=args.layer,
                      prompt=chosen_prompt(model.pipeline, args, "text"), truncate_dim=args.truncate_dim)
    scores, name = correlation(frame), similarity_column(frame)
    print(json.dumps({"spearman": scores[f"spearman_{name}"], "pearson": scores[f"pearson_{name}"],
                      "pairs": len(frame), "similarity": name}))
    return 0


def _model_stage(model: LoadedModel, task: RetrievalTask, args: argparse.Namespace) -> Scored:
    from core.evaluation.retrieval import model_stage

    refuse_inapplicable(model, args)
    settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer, device=args.device,
                        truncate_dim=args.truncate_dim)
    return model_stage(model, task, settings, prompts=retrieval_prompts(model.pipeline, args))


def _hybrid_partner(name: str, device: str) -> Baseline | LoadedModel:
    """The second stage of --hybrid: a baseline by name, else the model, loaded before any work so that a model that
    cannot load is said at once."""
    from core.models.loading import load_model

    baseline = next((option for option in BASELINES if option == name), None)
    return baseline if baseline is not None else load_model(name, device)


def _hybrid_stage(partner: Baseline | LoadedModel, task: RetrievalTask, args: argparse.Namespace) -> Scored:
    """A baseline's list, or a model's with its own defaults (default pooling, its own prompts)."""
    from core.analysis.lexical import fit_baseline
    from core.evaluation.retrieval import lexical_stage

    if isinstance(partner, str):
        return lexical_stage(fit_baseline(partner, task.corpus), task)
    defaults = argparse.Namespace(pooling="default", layer=None, device=args.device, truncate_dim=None,
                                  prompt=None, prompt_name=None, no_prompts=args.no_prompts)
    return _model_stage(partner, task, defaults)


def run_retrieval(args: argparse.Namespace) -> int:
    import numpy as np

    from core.analysis.lexical import fit_baseline
    from core.evaluation.metrics import shown_name
    from core.evaluation.rerank import rerank_task
    from core.evaluation.retrieval import evaluate_fused, evaluate_stage, lexical_stage, paraphrase_task
    from core.evaluation.variants import Embedded, quantized_row
    from core.models.loading import load_model
    from core.models.reranker import load_reranker

    if (args.model is None) == (args.baseline is None):
        args.parser.error("give either --model ID --pooling P or --baseline tfidf|bow|bm25")
    if args.baseline and args.revision:
        args.parser.error("--revision names a revision of --model's hub model; a baseline has none")
    if args.baseline and args.quantize:
        args.parser.error("--quantize stores a model's vectors at lower precision; a baseline has none")
    if sum(map(bool, (args.hybrid, args.quantize, args.rerank))) > 1:
        args.parser.error("--quantize, --hybrid and --rerank are measured apart; give one of them")
    partner = _hybrid_partner(args.hybrid, args.device) if args.hybrid else None
    reranker = load_reranker(args.rerank, args.device) if args.rerank else None
    task = paraphrase_task(args.split)
    first = lexical_stage(fit_baseline(args.baseline, task.corpus), task) if args.baseline else \
        _model_stage(load_model(args.model, args.device, args.revision), task, args)
    result: TaskResult
    if partner is not None:
        result = evaluate_fused(task, first, _hybrid_stage(partner, task, args), ks=args.k)
    elif reranker is not None:
        sweep = rerank_task(task, first, reranker, depths=[args.rerank_top], ks=args.k)
        result = sweep.reranked[args.rerank_top]
    elif args.quantize:
        if not isinstance(first.queries, np.ndarray) or not isinstance(first.corpus, np.ndarray):
            args.parser.error("--quantize stores a dense model's float vectors at lower precision; a sparse "
                              "model's are already sparse, and a late-interaction model's are one per token")
        row = quantized_row(task, Embedded(first.queries, first.corpus), args.quantize, args.k)
        print(json.dumps({key.replace(" ", "_"): value for key, value in row.items()}
                         | {"queries": len(task.queries), "corpus": len(task.corpus)}))
        return 0
    else:
        result = evaluate_stage(task, first, ks=args.k)
    print(json.dumps({**{shown_name(key): value for key, value in result.metrics.items()}, **result.counts,
                      "score": result.score}))
    return 0
