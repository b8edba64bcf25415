"""`python -m core search …`: one query ranked over a corpus by the model, TF-IDF and bag of words, as JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.analysis.ranking import Ranker, rank_query
from core.cli.embed import read_lines
from core.cli.options import add_model_options, add_prompt_options, positive_int, retrieval_prompts
from core.data.corpus import corpus_texts
from core.data.stsb import stsb_corpus
from core.encoding.embedding_cache import cached_embeddings
from core.encoding.encoder import encode
from core.evaluation.lexical import BASELINES, fit_baseline
from core.models.loading import load_model


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("search", help="rank a corpus for one query (model, TF-IDF, bag of words)")
    add_model_options(parser)
    add_prompt_options(parser, roles=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--corpus", type=Path, default=None,
                        help="UTF-8 file, one text a line (default: the 7,977 STS-B sentences)")
    parser.add_argument("--k", type=positive_int, default=10)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    query = args.query.strip()
    if not query:
        raise ValueError("The query is empty; give --query a text.")
    corpus = corpus_texts(read_lines(args.corpus)) if args.corpus else stsb_corpus()
    model = load_model(args.model, args.device)
    options = {"pooling": args.pooling, "layer": args.layer, "truncate_dim": args.truncate_dim}
    query_prompt, document_prompt = retrieval_prompts(model.pipeline, args)
    rankers = {model.model_id: Ranker.dense(encode(model, [query], prompt=query_prompt, **options).vectors,
                                            cached_embeddings(model, corpus, prompt=document_prompt, **options))}
    rankers |= {label: Ranker.of_index(fit_baseline(kind, corpus), query) for kind, label in BASELINES.items()}
    ranking = rank_query(corpus, rankers, k=args.k, primary=model.model_id)
    print(json.dumps({"query": query, "k": ranking.k, "corpus": len(corpus),
                      "results": ranking.table.to_dict(orient="records")}))
    return 0
