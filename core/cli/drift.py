"""`python -m core drift …`: how far a new set of texts has drifted from a reference set in a model's space
(core.evaluation.set_drift): a domain classifier's AUC, MMD² with its permutation p-value, the centroids' cosine,
the clusters each set over-represents, and the texts that are new or gone."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.cli.options import add_model_options, add_revision_option, source


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("drift", help="how far a new set of texts has drifted from a reference set: a "
                                                 "domain classifier's AUC, MMD² with its permutation p-value, the "
                                                 "clusters each set over-represents, and the texts new or gone")
    add_model_options(parser)
    add_revision_option(parser)
    parser.add_argument("--reference", type=source, required=True,
                        help="the reference texts: a .txt (one a line), .csv, .jsonl or .parquet with a text column, "
                             "or a store URI (`make stores`), whose texts the model embeds")
    parser.add_argument("--current", type=source, required=True, help="the new texts, read as --reference is")
    parser.add_argument("--text-column", default="text", help="the column of texts in a table (default: text)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(run=run)


def _texts(path: Path | str, column: str) -> list[str]:
    """The file's texts, trimmed, empty ones left out: a .txt's lines (as `embed` reads them), or a table's column."""
    from core.cli.embed import read_lines
    from core.data.corpus import NoTexts
    from core.data.stores.reading import store_table
    from core.data.uploads import column as text_column
    from core.data.uploads import read_table

    if isinstance(path, str):
        texts = text_column(store_table(path), column)
    elif path.suffix.lower() == ".txt":
        texts = read_lines(path)
    else:
        table = read_table(path.name, path.read_bytes())
        if table.empty:
            raise NoTexts(path)
        texts = text_column(table, column)
    return [text.strip() for text in texts if text.strip()]


def _same(a: Path | str, b: Path | str) -> bool:
    return a == b if isinstance(a, str) or isinstance(b, str) else a.resolve() == b.resolve()


def run(args: argparse.Namespace) -> int:
    from core.analysis.set_drift import MAX_TEXTS
    from core.analysis.statistics import p_text
    from core.cli.options import refuse_inapplicable
    from core.evaluation.set_drift import drift_sets
    from core.kinds import kind_of
    from core.models.loading import NotAnEmbedder, load_model
    from core.settings import Settings

    try:
        if _same(args.reference, args.current):
            raise ValueError("--reference and --current are the same file: give the new texts as --current.")
        reference, current = _texts(args.reference, args.text_column), _texts(args.current, args.text_column)
        model = load_model(args.model, args.device, args.revision)
        refuse_inapplicable(model, args)
        settings = Settings(model_id=model.model_id, pooling=args.pooling, device=args.device)
        report = drift_sets(model, reference, current, settings)
    except (ValueError, NotAnEmbedder) as err:  # the sets, a reranker: one sentence
        sys.stderr.write(f"error: {err}\n")
        return 2
    if report.note:
        print(f"note: {model.model_id} is {kind_of(model).article}: {report.note}", file=sys.stderr)
    if report.sampled:
        print(f"note: a set of more than {MAX_TEXTS:,} texts is compared on a seeded sample of {MAX_TEXTS:,}.",
              file=sys.stderr)
    record = report.record()
    if args.json:
        print(json.dumps(record))
        return 0
    print(f"domain classifier AUC {record['auc']:.3f} (95% {record['auc_low']:.3f}–{record['auc_high']:.3f}; "
          "0.5: the sets cannot be told apart)")
    print(f"MMD² {record['mmd2']:.5f}, {p_text(report.mmd.p_value)} ({record['permutations']:,} permutations)")
    print(f"centroids' cosine {record['centroid_cosine']:.4f}")
    print("\nclusters (the new set's share against the reference's; Fisher's test, Benjamini–Hochberg):")
    print(report.clusters[["cluster", "keywords", "reference_share", "current_share", "p_adjusted"]].to_string(
        index=False, float_format=lambda value: f"{value:.4f}"))
    for title, frame in (("new texts farthest from every reference text", report.new_topics()),
                         ("reference texts farthest from every new text", report.gone())):
        print(f"\n{title}:")
        print(frame.to_string(index=False, float_format=lambda value: f"{value:.4f}"))
    return 0
