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
    parser.add_argument("--method", choices=["exact", "ig"], default="exact",
                        help="exact: the token x token split (mean, mean_sqrt_len, max pooling); ig: integrated "
                             "gradients (any pooling)")
    parser.add_argument("--steps", type=positive_int, default=32, help="integrated-gradients steps")
    parser.add_argument("--attribution-layer", type=int, default=None,
                        help="ig: the layer attributed to (default: the middle one)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.analysis.attribution import attribute_pair
    from core.analysis.explanation import NoExactSplit, explain_pair, reference_texts
    from core.models.loading import load_model

    model = load_model(args.model, args.device)
    if args.method == "exact":
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
                            attribution_layer=args.attribution_layer, steps=args.steps)
    print(json.dumps({"method": "ig", "layer": result.score_layer, "attribution_layer": result.attribution_layer,
                      "steps": result.steps, "tokens_a": result.a.tokens,
                      "attributions_a": result.a.attributions.tolist(),
                      "tokens_b": result.b.tokens, "attributions_b": result.b.attributions.tolist(),
                      "score": result.a.score, "completeness_error": max(abs(result.a.gap), abs(result.b.gap))}))
    return 0
