from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.analysis.map.methods import METHODS
from core.cli.options import add_model_options, add_revision_option, positive_int, source

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from core.analysis.map.projection import Projection
    from core.maps.build import MapPoints

SAVED_MAP = ".html"  # the map itself (core/maps/html.py)
OUTPUTS = (".csv", ".parquet", SAVED_MAP)  # what `project --output` writes


def map_output(text: str) -> Path:
    """--output's file, refused in one line (exit status 2) where its suffix names a format `project` does not
    write."""
    path = Path(text)
    if path.suffix.lower() not in OUTPUTS:
        raise argparse.ArgumentTypeError(f"project writes {', '.join(OUTPUTS[:-1])} or {OUTPUTS[-1]}, not "
                                         f"{path.suffix or 'a file without a suffix'}; name the file so")
    return path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("project", help="map a vectors file or a dataset folder (or, with --model, a file "
                                                   "of texts) to 2-D (PCA, t-SNE or UMAP) into a .csv or .parquet of "
                                                   "row ids, texts and projection_x, projection_y (Embedding Atlas's "
                                                   "columns), with a tag_<name> column per tag the Map page keeps for "
                                                   "those rows, or into a .html file: the map itself, which opens "
                                                   "anywhere with no server and no network; kept on disk with the "
                                                   "map's projections, so neither computes it twice")
    parser.add_argument("--input", type=source, nargs="+", required=True,
                        help="a store URI (lancedb://FOLDER/TABLE, chroma://…, qdrant://…, postgresql://…?table=T; "
                             "`make stores`), a .parquet file with a vector column (as `embed` writes), a .npy file "
                             "and a .txt file "
                             "of its texts, the Embedding Projector's vectors.tsv and metadata.tsv, or a dataset "
                             "folder (as `embed --engine ray` writes: every row, its vectors memory-mapped); with "
                             "--model, one file of texts: .txt (one a line), or .csv, .jsonl or .parquet with a text "
                             "column")
    parser.add_argument("--output", type=map_output, required=True,
                        help=f"{', '.join(OUTPUTS[:-1])} (the points) or {OUTPUTS[-1]} (the map as one file)")
    embedded = parser.add_argument_group("Texts embedded here (--model), as the Map page embeds them")
    add_model_options(embedded, required=False)
    add_revision_option(embedded)
    embedded.add_argument("--text-column", default="text", help="the column of the texts")
    embedded.add_argument("--label-column", default=None, help="a column of labels, written beside each row")
    embedded.add_argument("--query", default=None, help="a text placed on the map as the Map page places its query: "
                                                        "a star with lines to its nearest texts (drawn in a .html "
                                                        "map)")
    parser.add_argument("--method", choices=METHODS, default="PCA")
    parser.add_argument("--perplexity", type=float, default=30.0)
    parser.add_argument("--neighbours", type=positive_int, default=15)
    parser.add_argument("--min-dist", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    scale = parser.add_argument_group("Ray Data (--engine ray, for a dataset folder; install with `make scale`)")
    scale.add_argument("--engine", choices=("local", "ray"), default="local",
                       help="ray: the fitted map places the dataset's rows on Ray actors, a chunk each")
    scale.add_argument("--address", default=None, help="a running Ray cluster (host:6379 or ray://host:10001) that "
                                                       "reaches the dataset folder by the same path; else Ray starts "
                                                       "here")
    scale.add_argument("--workers", type=positive_int, default=2)
    parser.set_defaults(run=run)


def _read(path: Path) -> tuple[str, bytes]:
    """An input file's name and bytes. An empty file holds no texts, and so does a Parquet file of no rows (what
    `embed --engine ray` writes for an empty text file among others): NoTexts."""
    from core.data.corpus import NoTexts

    data = path.read_bytes()
    if not data or (path.suffix.lower() == ".parquet" and _parquet_rows(data) == 0):
        raise NoTexts(path)
    return path.name, data


def _parquet_rows(data: bytes) -> int | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(pa.BufferReader(data)).num_rows
    except (pa.ArrowInvalid, OSError):  # not Parquet: read_vector_files says so
        return None


def _corpus(paths: list[Path | str]) -> tuple[list[str], np.ndarray, pd.DataFrame, np.ndarray | None, str | None]:
    """Texts, vectors and metadata of the input files, or of the one dataset folder given (with its rows' numbers,
    their ids, and the key its tags are kept under)."""
    from core.data.corpus import NoTexts
    from core.data.datasets import DatasetError, dataset_sample, open_dataset
    from core.data.labels import dataset_scope
    from core.data.vectors import TEXT_COLUMN, read_vector_files

    if any(isinstance(path, str) for path in paths):
        from core.data.stores.reading import read_store

        if len(paths) != 1:
            raise ValueError("Give one store URI as --input, alone.")
        corpus = read_store(str(paths[0]))
        return corpus.texts, corpus.vectors, corpus.metadata, None, None
    files = [Path(path) for path in paths]
    if len(files) == 1 and files[0].is_dir():
        try:
            dataset = open_dataset(files[0], [files[0]])
        except DatasetError as err:
            raise ValueError(str(err)) from err
        if not len(dataset.vectors):
            raise NoTexts(files[0])
        rows, frame, vectors = dataset_sample(dataset, len(dataset.vectors))
        return (frame[TEXT_COLUMN].tolist(), vectors, frame.drop(columns=[TEXT_COLUMN]), rows,
                dataset_scope(dataset.info.name, dataset.info.version))
    corpus = read_vector_files([_read(path) for path in files])
    return corpus.texts, corpus.vectors, corpus.metadata.reset_index(drop=True), None, None


def _on_ray(args: argparse.Namespace, vectors: np.ndarray) -> Projection:
    """The dataset's projection as stored for the map, or fitted here and placed on Ray, then stored."""
    from core.analysis.map.projection import ProjectionParams, fit_projection
    from core.analysis.map.projection_cache import projection_key, read_stored, store
    from core.scale.cluster import Cluster, ScaleError, import_ray
    from core.scale.ray_project import place_on_ray

    if len(args.input) != 1 or isinstance(args.input[0], str) or not args.input[0].is_dir():
        raise ScaleError("--engine ray maps a dataset folder (as `embed --engine ray` writes); give its path.")
    import_ray()  # say at once when the extra is missing
    options = ProjectionParams(args.method, args.perplexity, args.neighbours, args.min_dist, args.seed).options()
    key = projection_key(vectors, options)
    found = read_stored(key, len(vectors))
    if found is None:
        fit = fit_projection(vectors, method=args.method, perplexity=args.perplexity, neighbours=args.neighbours,
                             min_dist=args.min_dist, seed=args.seed)
        found = place_on_ray(fit, args.input[0], Cluster(args.address, args.workers))
        store(key, found)
    return found


def _embedded(args: argparse.Namespace) -> MapPoints:
    """The texts of the one --input file, embedded by --model as the Map page embeds them and mapped."""
    from core.analysis.map.projection import ProjectionParams
    from core.cli.options import refuse_inapplicable
    from core.data.corpus import NoTexts, labelled_corpus
    from core.data.rows import ROW_ID
    from core.data.uploads import column, read_table
    from core.maps.build import model_map
    from core.models.loading import load_model
    from core.settings import Settings

    if args.engine == "ray" or len(args.input) != 1 or isinstance(args.input[0], str):
        raise ValueError("--model embeds the texts of one file here; give one --input file, without --engine ray "
                         "(a store's vectors are mapped as stored: leave --model out).")
    path = args.input[0]
    table = read_table(path.name, path.read_bytes())
    if table.empty:
        raise NoTexts(path)
    label = args.label_column
    frame = labelled_corpus(column(table, args.text_column), None if label is None else column(table, label),
                            table[ROW_ID].tolist() if ROW_ID in table.columns else None)
    model = load_model(args.model, args.device, args.revision)
    refuse_inapplicable(model, args)
    settings = Settings(model_id=model.model_id, pooling=args.pooling, layer=args.layer, device=args.device)
    params = ProjectionParams(args.method, args.perplexity, args.neighbours, args.min_dist, args.seed)
    return model_map(frame.rename(columns={"label": label}) if label else frame, model, settings, params, label=label,
                     query=args.query)


def _given(args: argparse.Namespace) -> tuple[MapPoints, str | None]:
    """The vectors of the input files (or dataset folder) mapped, here or on Ray."""
    import pandas as pd

    from core.analysis.map.projection_cache import cached_project
    from core.data.rows import with_row_ids
    from core.maps.build import map_points

    texts, vectors, metadata, numbers, key = _corpus(args.input)
    if args.label_column is not None and args.label_column not in metadata.columns:
        raise ValueError(f"There is no column '{args.label_column}' beside the vectors; the columns found are: "
                         f"{', '.join(map(str, metadata.columns)) or 'none'}.")
    projection = (_on_ray(args, vectors) if args.engine == "ray" else
                  cached_project(vectors, method=args.method, perplexity=args.perplexity, neighbours=args.neighbours,
                                 min_dist=args.min_dist, seed=args.seed))
    frame = with_row_ids(pd.concat([pd.DataFrame({"text": texts}), metadata], axis=1), numbers=numbers)
    return map_points(frame, vectors, projection, title=f"{args.method} of {len(frame):,} points", seed=args.seed,
                      label=args.label_column), key


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from core.analysis.map.projection import trust
    from core.data.labels import TEXTS, TagStore, tag_columns
    from core.data.rows import ROW_ID
    from core.paths import atomic_write

    if args.query is not None and args.model is None:
        raise ValueError("--query is embedded by the model that embeds the texts: give --model with a file of texts, "
                         "or leave --query out.")
    points, key = (_embedded(args), None) if args.model is not None else _given(args)
    frame = points.frame
    tags = TagStore().tags(key or TEXTS)  # the tags the Map page keeps for these rows
    if args.output.suffix.lower() == SAVED_MAP:
        from core.maps.html import points_html

        page = points_html(points, tags)
        atomic_write(args.output, lambda tmp: tmp.write_text(page, encoding="utf-8"))
        print(f"The map of {len(frame):,} points is saved as {args.output}: open it in a browser.", file=sys.stderr)
        return 0
    table = pd.concat([frame[[ROW_ID, "text"]],
                       pd.DataFrame({"projection_x": points.coords[:, 0], "projection_y": points.coords[:, 1]}),
                       frame.drop(columns=[ROW_ID, "text"]), tag_columns(points.row_ids, tags)], axis=1)
    if args.output.suffix.lower() == ".parquet":
        atomic_write(args.output, lambda tmp: table.to_parquet(tmp, index=False))
    else:
        atomic_write(args.output, lambda tmp: table.to_csv(tmp, index=False))
    report = trust(points.space, points.coords, seed=args.seed)
    trustworthiness = "—" if report.trustworthiness is None else f"{report.trustworthiness:.3f}"
    how = f", fitted on a seeded {points.fitted_on:,} and placing the rest" if points.fitted_on else ""
    print(f"{args.method} of {len(table):,} points{how}: neighbours kept {report.mean_overlap:.0%}, trustworthiness "
          f"{trustworthiness} (over {report.points:,} points)", file=sys.stderr)
    return 0
