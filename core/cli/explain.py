"""`python -m core explain …`: why two texts are similar, as JSON."""

from __future__ import annotations

import argparse
import json

from core.cli.options import add_model_options, positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("explain", help="token-level explanation of two texts' similarity, as JSON")
    add_model_options(parser)
    parser.add_argument("--a", required=True, help="the first text")
    parser.add_argument("--b", required=True, help="the second text")
    parser.add_argument("--method", choices=["exact", "ig"], default=None,
                        help="exact (the default): the token x token split (mean, mean_sqrt_len, max pooling); ig: "
                             "integrated gradients (any pooling; a reranker's only method)")
    parser.add_argument("--steps", type=positive_int, default=None,
                        help="integrated-gradients steps (default 32; a reranker's: raised from 16 until the gap is "
                             "under 1%% of the logit's change)")
    parser.add_argument("--versus", default=None,
                        help="a reranker: a second text for the query --a, to see why --b scores above or below it")
    parser.add_argument("--attribution-layer", type=int, default=None,
                        help="ig: the layer attributed to (default: the middle one)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.analysis.attribution import attribute_pair
    from core.analysis.explanation import NoExactSplit, explain_pair, reference_texts
    from core.models.loading import NotAnEmbedder, load_model

    try:
        model = load_model(args.model, args.device)
    except NotAnEmbedder:
        return run_reranker(args)
    if args.versus is not None:
        raise ValueError("--versus applies to a reranker (why one text scores above another for a query); leave it "
                         "out.")
    if args.method in (None, "exact"):
        try:
            found = explain_pair(model, args.a, args.b, pooling=args.pooling, layer=args.layer,
                                 reference=reference_texts())
        except NoExactSplit as err:
            raise NoExactSplit(f"{err} Run with --method ig.") from err
        print(json.dumps({"method": "exact", "pooling": found.pooling, "layer": found.layer,
                          "tokens_a": found.a.tokens, "tokens_b": found.b.tokens,
                          "matrix": found.matrix.round(8).tolist(), "score": found.score, "sum": found.total,
                          "shared": found.shared, "specific": found.specific,
                          "truncated": [found.a.truncated, found.b.truncated]}))
        return 0
    result = attribute_pair(model, args.a, args.b, pooling=args.pooling, layer=args.layer,
                            attribution_layer=args.attribution_layer, steps=args.steps or 32)
    print(json.dumps({"method": "ig", "layer": result.score_layer, "attribution_layer": result.attribution_layer,
                      "steps": result.steps, "tokens_a": result.a.tokens,
                      "attributions_a": result.a.attributions.tolist(),
                      "tokens_b": result.b.tokens, "attributions_b": result.b.attributions.tolist(),
                      "score": result.a.score, "completeness_error": max(abs(result.a.gap), abs(result.b.gap))}))
    return 0


def run_reranker(args: argparse.Namespace) -> int:
    """A reranker's explanation: integrated gradients of its logit over the joint input's word embeddings
    (core.analysis.rerank_attribution); with --versus, the same for the second text and their difference."""
    import sys

    from core.analysis.rerank_attribution import RerankComparison, explain_rerank
    from core.cli.options import refuse_inapplicable
    from core.kinds import kind_of
    from core.models.reranker import load_reranker

    reranker = load_reranker(args.model, args.device)
    refuse_inapplicable(reranker, args)
    kind = kind_of(reranker)
    for flag, given in (("--method exact", args.method == "exact"),
                        ("--attribution-layer", args.attribution_layer is not None)):
        if given:
            raise ValueError(f"{flag} does not apply to {kind.article}{kind.why_refused}: its explanation is "
                             "integrated gradients over the word embeddings of both texts; leave it out.")
    found = explain_rerank(reranker, args.a, args.b, steps=args.steps)
    record = found.record()
    if args.versus is not None:
        other = explain_rerank(reranker, args.a, args.versus, steps=args.steps)
        record["versus"] = {**other.record(), **RerankComparison(found, other).record()}
    for name, explained in (("--b", found), *((("--versus", other),) if args.versus is not None else ())):
        if explained.truncated:
            sys.stderr.write(f"note: --a and {name} together are longer than {reranker.model_id} reads "
                             f"({reranker.max_length} tokens), so it cut them; the explanation covers what it read.\n")
    print(json.dumps(record))
    return 0
