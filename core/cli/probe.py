"""`python -m core probe …`: what each layer of a model knows about a label column of your texts
(core.evaluation.probing): one row per layer, with the labels shuffled (chance), the same architecture untrained, the
words' TF-IDF baseline and the online codelength. Rows with a blank label are left out and counted."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.cli.options import add_model_options, add_revision_option, source

ALL = "all"


def layer_list(text: str) -> list[int] | None:
    """--layers: "all" (None), or layer numbers separated by commas."""
    if text.strip().lower() == ALL:
        return None
    try:
        layers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"give 'all' or layer numbers separated by commas (0,3,6), not {text!r}") \
            from None
    if not layers or min(layers) < 0:
        raise argparse.ArgumentTypeError(f"give 'all' or layer numbers of 0 or more (0,3,6), not {text!r}")
    return sorted(set(layers))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("probe", help="what each layer of a model knows about a label column: a linear "
                                                 "probe per layer beside the labels shuffled, the architecture "
                                                 "untrained, the words' TF-IDF and the online codelength")
    add_model_options(parser)
    add_revision_option(parser)
    parser.add_argument("--input", type=source, required=True,
                        help="a .csv, .jsonl or .parquet file of texts and labels, or a store URI whose metadata holds "
                             "the labels (lancedb://FOLDER/TABLE, chroma://…, qdrant://…, postgresql://…?table=T; "
                             "`make stores`): its texts are embedded by the model at each layer")
    parser.add_argument("--label-column", required=True, help="the column of labels (at least 2 classes of at least "
                                                              "5 different texts each; blank ones are left out)")
    parser.add_argument("--text-column", default="text", help="the column of texts (default: text)")
    parser.add_argument("--layers", type=layer_list, default=None,
                        help="'all' (the default) or layer numbers such as 0,3,6; 0 is the embeddings' output")
    parser.add_argument("--json", action="store_true", help="one JSON object, the rows under `layers`")
    parser.set_defaults(run=run)


def _rows(path: Path | str, text_column: str, label_column: str) -> tuple[list[str], list[str]]:
    """The texts and labels of the file's (or store's) rows that hold a text, or ValueError in one sentence."""
    from core.data.corpus import NoTexts
    from core.data.stores.reading import store_table
    from core.data.uploads import column, read_table

    table = store_table(path) if isinstance(path, str) else read_table(path.name, path.read_bytes())
    if table.empty:
        raise NoTexts(path)
    texts, labels = column(table, text_column), column(table, label_column)
    kept = [i for i, text in enumerate(texts) if text.strip()]
    if not kept:
        raise NoTexts(path)
    return [texts[i].strip() for i in kept], [labels[i] for i in kept]


def run(args: argparse.Namespace) -> int:
    from core.cli.options import refuse_inapplicable
    from core.evaluation.probing import probe_texts
    from core.kinds import kind_of
    from core.models.loading import NotAnEmbedder, load_model
    from core.settings import Settings

    try:
        texts, labels = _rows(args.input, args.text_column, args.label_column)
        model = load_model(args.model, args.device, args.revision)
        refuse_inapplicable(model, args)
        settings = Settings(model_id=model.model_id, pooling=args.pooling, device=args.device)
        report = probe_texts(model, texts, labels, settings, layers=args.layers)
    except (ValueError, UnicodeDecodeError, NotAnEmbedder) as err:  # the input, the labels, a reranker: one sentence
        sys.stderr.write(f"error: {err}\n")
        return 2
    if report.note:
        print(f"note: {model.model_id} is {kind_of(model).article}: {report.note}", file=sys.stderr)
    if report.labels.said():
        print(f"note: {report.labels.said()}", file=sys.stderr)
    if report.untrained_note:
        print(f"note: no untrained baseline: {report.untrained_note}", file=sys.stderr)
    record = report.record()
    if args.json:
        print(json.dumps(record))
        return 0
    print(report.frame().to_string(index=False, float_format=lambda value: f"{value:.4f}"))
    beyond = record["first_beyond_words"]
    print(f"majority {record['majority']:.4f} · classes {', '.join(report.labels.names)} · n {record['n']} · "
          f"unlabelled {record['unlabelled']} · folds {record['folds']} · seed {record['seed']} · first layer beyond "
          f"the words {'none' if beyond is None else beyond}")
    return 0
