from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.ctrl_c import CtrlC
from core.cli.options import (
    add_embedding_options,
    chosen_prompt,
    positive_int,
    refuse_inapplicable,
)
from core.cli.progress_line import ProgressLine
from core.settings import Settings

if TYPE_CHECKING:
    from core.models.loading import LoadedModel

IMAGES_NOT_STORED = ("A store is written from a text model's vectors; write a model of images and texts' vectors as "
                     ".parquet or .npy.")


def read_lines(path: Path) -> list[str]:
    """Every line is a text, empty ones included ("\\n" is one empty text); a final newline ends the last line. An
    empty file (0 bytes) holds no texts: NoTexts; a file that is not UTF-8, ValueError in one sentence."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not UTF-8 text ({err.reason} at byte {err.start}).") from err
    if text == "":
        from core.data.corpus import NoTexts

        raise NoTexts(path)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("embed", help="embed a file of texts (one per line) into a .npy array or a "
                                                 ".parquet table of texts and vectors; with --engine ray, many "
                                                 ".txt or Parquet files into a folder of Parquet")
    add_embedding_options(parser)
    parser.add_argument("--batch-size", type=positive_int, default=32)
    parser.add_argument("--input", required=True, help="a .txt file (one text a line); with a model of images and "
                                                       "texts (CLIP, SigLIP), also a folder of images, a .zip of them "
                                                       "or a CSV/Parquet file with an 'image' column of paths; with "
                                                       "--engine ray, a path or glob of .txt and .parquet files on "
                                                       "any filesystem pyarrow reads (s3://…)")
    parser.add_argument("--output", required=True, help=".npy or .parquet; a sparse model's .npz (a scipy CSR "
                                                        "matrix) or .parquet (indices and values columns); a "
                                                        "late-interaction model's .parquet (tokens and token_vectors "
                                                        "columns); with --engine ray, a folder; a dense model's "
                                                        "texts also into a store (lancedb://FOLDER/TABLE, "
                                                        "chroma://FOLDER/COLLECTION, qdrant://FOLDER/COLLECTION, "
                                                        "postgresql://…?table=T; `make stores`)")
    parser.add_argument("--overwrite", action="store_true", help="replace the store's table or collection where it "
                                                                 "exists (else refused)")
    scale = parser.add_argument_group("Ray Data (--engine ray; install with `make scale`)")
    scale.add_argument("--engine", choices=("local", "ray"), default="local")
    scale.add_argument("--address", default=None, help="a running Ray cluster (host:6379 or ray://host:10001); "
                                                       "without it, Ray starts on this machine")
    scale.add_argument("--workers", type=positive_int, default=2, help="actors, each loading the model once")
    scale.add_argument("--cpus-per-worker", type=float, default=1.0)
    scale.add_argument("--gpus-per-worker", type=float, default=0.0)
    scale.add_argument("--text-column", default="text", help="the column of Parquet inputs that holds the texts")
    parser.set_defaults(run=run)


def settings_of(model: LoadedModel, args: argparse.Namespace) -> Settings:
    refuse_inapplicable(model, args)
    return Settings(model_id=args.model, pooling=args.pooling, layer=args.layer, normalize=args.normalize,
                    max_length=args.max_length, device=args.device, truncate_dim=args.truncate_dim,
                    prompt=chosen_prompt(model.pipeline, args, args.role), role=args.role)


def run_ray(args: argparse.Namespace, settings: Settings, kind: str) -> int:
    from core.scale.cluster import Cluster
    from core.scale.ray_embed import embed_files

    cluster = Cluster(args.address, args.workers, args.cpus_per_worker, args.gpus_per_worker)
    line = ProgressLine(sys.stderr)
    try:
        with CtrlC() as ctrl_c:  # from before Ray starts until it has stopped
            embed_files(args.input, args.output, settings, text_column=args.text_column, cluster=cluster,
                        batch_size=args.batch_size, say=line.say, progress=line.update, kind=kind,
                        stop=lambda: ctrl_c.asked)
        if ctrl_c.asked:
            line.say(f"Interrupted: the files listed above are complete in {args.output}; run the same command "
                     "again to embed the rest.")
            return 130
    finally:
        line.close()
    return 0


def run(args: argparse.Namespace) -> int:
    from core.kinds import kind_of
    from core.models.loading import load_model

    if args.engine == "ray":
        from core.data.stores import is_store_uri
        from core.scale.cluster import import_ray

        if is_store_uri(args.output):
            raise ValueError("--engine ray writes a folder of Parquet; write a store with --engine local.")
        if args.revision is not None:
            raise ValueError("Ray's workers load the model at main: --revision applies to --engine local; leave it "
                             "out, or give the revision's folder in the Hugging Face cache as --model.")
        import_ray()  # before the model loads: say at once when the extra is missing
        model = load_model(args.model, args.device)
        return run_ray(args, settings_of(model, args), model.kind)
    from core.cli import images
    from core.data.images import is_image_source
    from core.data.stores import is_store_uri
    from core.data.stores.reading import check_writable
    from core.models.image_text import ImagesAndTexts, load_image_text

    store = is_store_uri(args.output)
    if store:
        check_writable(args.output, overwrite=args.overwrite)  # before the work an existing table would waste
    if is_image_source(Path(args.input)):  # a folder, zip or table of images
        if store:
            raise ValueError(IMAGES_NOT_STORED)
        return images.embed(load_image_text(args.model, args.device, args.revision), args)
    texts = read_lines(Path(args.input))
    try:
        model = load_model(args.model, args.device, args.revision)
    except ImagesAndTexts as found:  # texts into the space of a model of images and texts
        if store:
            raise ValueError(IMAGES_NOT_STORED) from None
        return images.embed(found.model, args)
    settings, kind = settings_of(model, args), kind_of(model)
    if store:
        return _to_store(model, texts, settings, args)
    output = Path(args.output)
    kind.check_output(model, output)
    notes = kind.write(model, texts, kind.encode(model, texts, settings, batch_size=args.batch_size), output)
    for notice in notes:
        print(f"note: {notice}", file=sys.stderr)
    return 0


def _to_store(model: LoadedModel, texts: list[str], settings: Settings, args: argparse.Namespace) -> int:
    """The texts' vectors into a new table or collection, each row with its row id (as the app gives it) and text."""
    import pandas as pd

    from core.data.rows import with_row_ids
    from core.data.stores.reading import write_store
    from core.data.vectors import TEXT_COLUMN, VectorCorpus
    from core.evaluation.stored import store_refusal
    from core.kinds import kind_of

    refused = store_refusal(model)
    if refused is not None:
        raise ValueError(refused)
    vectors = kind_of(model).encode(model, texts, settings, batch_size=args.batch_size).vectors
    rows = with_row_ids(pd.DataFrame({TEXT_COLUMN: texts}))
    write_store(args.output, VectorCorpus(texts, vectors, rows.drop(columns=[TEXT_COLUMN])), overwrite=args.overwrite)
    return 0
