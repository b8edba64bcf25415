"""`python -m core rerank --model ID --query TEXT --input FILE [--top N]`: the texts of FILE (one a line) ordered by a
reranker (a CrossEncoder) for the query, as one JSON list of {"rank", "text", "score"}."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.cli.embed import read_lines
from core.cli.options import positive_int
from core.settings import DEVICES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("rerank", help="order a file's texts for a query with a reranker (CrossEncoder)")
    parser.add_argument("--model", required=True, help="a reranker: catalog id, Hugging Face id or local folder")
    parser.add_argument("--query", required=True)
    parser.add_argument("--input", type=Path, required=True, help="UTF-8 file, one text a line")
    parser.add_argument("--top", type=positive_int, default=None, help="print only the best N (default: all)")
    parser.add_argument("--device", default="auto", choices=DEVICES)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.analysis.rerank import pair_scores, reranked_order
    from core.models.reranker import load_reranker

    query = args.query.strip()
    if not query:
        raise ValueError("The query is empty; give --query a text.")
    texts = [text for text in read_lines(args.input) if text.strip()]
    if not texts:
        raise ValueError(f"{args.input} holds no text to rerank; give it one text a line.")
    reranker = load_reranker(args.model, args.device)
    scores = pair_scores(reranker, [(query, text) for text in texts])
    order = reranked_order(scores)[:args.top]
    print(json.dumps([{"rank": rank, "text": texts[i], "score": float(scores[i])}
                      for rank, i in enumerate(order, start=1)]))
    return 0
