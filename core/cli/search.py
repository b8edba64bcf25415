"""`python -m core search …`: one query ranked over a corpus by the model (dense, sparse, or late interaction by its
own MaxSim), TF-IDF, bag of words and BM25, as JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.analysis.baselines import BASELINES
from core.cli.embed import read_lines
from core.cli.options import (
    add_model_options,
    add_prompt_options,
    add_revision_option,
    positive_int,
    refuse_inapplicable,
    retrieval_prompts,
    source,
)
from core.settings import Settings

if TYPE_CHECKING:
    from core.analysis.ranking import AnyRanker
    from core.models.loading import LoadedModel


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("search", help="rank a corpus for one query (model, TF-IDF, bag of words)")
    add_model_options(parser)
    add_revision_option(parser)
    add_prompt_options(parser, roles=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--corpus", type=Path, default=None,
                        help="UTF-8 file, one text a line (default: the 7,977 STS-B sentences)")
    parser.add_argument("--input", type=source, default=None,
                        help="rank a store's vectors as stored, the query embedded by --model (lancedb://FOLDER/TABLE, "
                             "chroma://…, qdrant://…, postgresql://…?table=T; `make stores`); or images, with a model "
                             "of images and texts (CLIP, SigLIP): a folder of images, a .zip of them or a CSV/Parquet "
                             "file with an 'image' column of paths")
    parser.add_argument("--k", type=positive_int, default=10)
    parser.add_argument("--batch-size", type=positive_int, default=32)
    parser.add_argument("--json", action="store_true", help="the results as JSON (always: kept for scripts)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.analysis.lexical import fit_baseline
    from core.analysis.ranking import Ranker, rank_query
    from core.data.corpus import corpus_texts
    from core.data.stsb import stsb_corpus
    from core.models.loading import load_model

    if isinstance(args.input, str):
        if args.corpus is not None:
            raise ValueError("Give --input (a store) or --corpus (texts), not both.")
        return _store_search(args)
    if args.input is not None:
        from core.cli.images import search

        if args.corpus is not None:
            raise ValueError("Give --input (images) or --corpus (texts), not both.")
        return search(args)
    query = args.query.strip()
    if not query:
        raise ValueError("The query is empty; give --query a text.")
    corpus = corpus_texts(read_lines(args.corpus)) if args.corpus else stsb_corpus()
    model = load_model(args.model, args.device, args.revision)
    rankers = {model.model_id: _model_ranker(model, query, corpus, args)}
    rankers |= {label: Ranker.of_index(fit_baseline(baseline, corpus), query) for baseline, label in BASELINES.items()}
    ranking = rank_query(corpus, rankers, k=args.k, primary=model.model_id)
    print(json.dumps({"query": query, "k": ranking.k, "corpus": len(corpus),
                      "results": ranking.table.to_dict(orient="records")}))
    return 0


def _store_search(args: argparse.Namespace) -> int:
    """`search --input URI`: the store's vectors as stored, ranked by cosine to the query as --model embeds it."""
    from core.data.stores.reading import read_store
    from core.evaluation.stored import stored_hits
    from core.models.loading import load_model

    query = args.query.strip()
    if not query:
        raise ValueError("The query is empty; give --query a text.")
    corpus = read_store(args.input)
    model = load_model(args.model, args.device, args.revision)
    refuse_inapplicable(model, args)
    query_prompt, _ = retrieval_prompts(model.pipeline, args)
    settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer,
                        truncate_dim=args.truncate_dim, prompt=query_prompt, role="query")
    results = stored_hits(model, query, corpus, settings, args.k)
    print(json.dumps({"query": query, "k": len(results), "corpus": len(corpus.texts), "results": results}))
    return 0


def _model_ranker(model: LoadedModel, query: str, corpus: Sequence[str], args: argparse.Namespace) -> AnyRanker:
    """The model's list, as its kind ranks (its corpus's vectors kept on disk for the next run)."""
    from core.kinds import kind_of

    refuse_inapplicable(model, args)
    kind = kind_of(model)
    settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer,
                        truncate_dim=args.truncate_dim)
    query_prompt, document_prompt = retrieval_prompts(model.pipeline, args)
    vectors = kind.cached(model, corpus, settings.with_(prompt=document_prompt, role="document"))
    return kind.ranker(model, query, vectors, settings.with_(prompt=query_prompt, role="query"), args.k)
