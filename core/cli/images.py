"""What `embed`, `search` and `evaluate zero-shot` do with a model of images and texts (core.models.image_text): a
folder, zip or table of images in; one row per image out (`row_id`, `image`: its path in the source, `label`,
`vector`), in the Parquet layout the app and Embedding Atlas read. A .txt input is embedded by the same model's text
tower, into the same space."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from core.data.images import IMAGE_COLUMN, LABEL_COLUMN, ImageCorpus, image_scan, is_image_source
from core.data.vectors import VECTOR_COLUMN
from core.models.image_text import ImageTextModel


def say_skipped(corpus: ImageCorpus) -> None:
    if corpus.said():
        print(f"note: {corpus.said()}", file=sys.stderr)


def read_and_embed(model: ImageTextModel, source: Path, batch_size: int) -> tuple[ImageCorpus, np.ndarray]:
    """The source's images and their vectors, each file read and decoded once; the skipped files said on stderr."""
    scan = image_scan(source)
    vectors = model.encode_images(scan, batch_size=batch_size)
    corpus = scan.corpus()
    say_skipped(corpus)
    return corpus, vectors


def write_rows(output: Path, corpus: ImageCorpus, vectors: np.ndarray) -> None:
    """The images' rows to `output` (.parquet, or .npy for the vectors alone), whole or not at all."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.data.rows import ROW_ID
    from core.paths import atomic_write

    if output.suffix.lower() == ".npy":
        atomic_write(output, lambda path: np.save(path, vectors))
        return
    table = pa.table({ROW_ID: corpus.row_ids, IMAGE_COLUMN: corpus.paths, LABEL_COLUMN: corpus.labels,
                      VECTOR_COLUMN: pa.array(list(vectors.astype(np.float32)), type=pa.list_(pa.float32()))})
    atomic_write(output, lambda path: pq.write_table(table, path))


def check_output(output: Path) -> None:
    if output.suffix.lower() not in (".parquet", ".npy"):
        raise ValueError(f"Image vectors are written as .parquet (row_id, image, label and vector columns) or .npy "
                         f"(the vectors alone), not {output.suffix or 'a file without a suffix'}.")


def refuse_options(args: argparse.Namespace) -> None:
    """ValueError in one sentence naming each vector option given: an image-and-text model's vectors are its towers'
    own here."""
    from core.cli.options import REFUSABLE

    given = [flag for flag in REFUSABLE if getattr(args, flag.removeprefix("--").replace("-", "_"), None)
             not in (None, False, "default")]  # "default": the pooling left out
    if given:
        verb = "do" if len(given) > 1 else "does"
        listed = given[0] if len(given) == 1 else f"{', '.join(given[:-1])} and {given[-1]}"
        raise ValueError(f"{listed} {verb} not apply to a model of images and texts, whose vectors are its "
                         f"towers' own; leave {'them' if len(given) > 1 else 'it'} out.")


def embed(model: ImageTextModel, args: argparse.Namespace) -> int:
    """`embed` with a model of images and texts: the input's images, or a .txt file's texts."""
    from core.cli.embed import read_lines
    from core.data.rows import ROW_ID, text_row_ids
    from core.data.vectors import VectorCorpus, to_parquet
    from core.paths import atomic_write

    refuse_options(args)
    source, output = Path(args.input), Path(args.output)
    check_output(output)
    if is_image_source(source):
        write_rows(output, *read_and_embed(model, source, args.batch_size))
        return 0
    texts = read_lines(source)
    vectors = model.encode_texts(texts, batch_size=args.batch_size)
    if output.suffix.lower() == ".npy":
        atomic_write(output, lambda path: np.save(path, vectors))
    else:
        import pandas as pd

        data = to_parquet(VectorCorpus(texts, vectors, pd.DataFrame({ROW_ID: text_row_ids(texts)})))
        atomic_write(output, lambda path: path.write_bytes(data))
    return 0


def search(args: argparse.Namespace) -> int:
    """`search --input FOLDER`: the source's images ranked by cosine to the query's text vector."""
    from core.analysis.search import top_k, unit_rows
    from core.data.rows import ROW_ID
    from core.models.image_text import load_image_text

    refuse_options(args)
    query = args.query.strip()
    if not query:
        raise ValueError("The query is empty; give --query a text.")
    model = load_image_text(args.model, args.device, args.revision)
    corpus, vectors = read_and_embed(model, Path(args.input), args.batch_size)
    hits = top_k(unit_rows(model.encode_texts([query])), unit_rows(vectors), args.k)
    results = [{"rank": rank + 1, ROW_ID: corpus.row_ids[i], IMAGE_COLUMN: corpus.paths[i], "label": corpus.labels[i],
                "score": float(score)} for rank, (i, score) in enumerate(zip(hits.indices[0], hits.scores[0]))]
    print(json.dumps({"query": query, "k": len(results), "images": len(corpus), "results": results}))
    return 0


def zero_shot(args: argparse.Namespace) -> int:
    """`evaluate zero-shot`: the source's labelled images classified by prompts of their labels, as JSON."""
    from core.evaluation.zero_shot import TEMPLATE, prompts_of, zero_shot
    from core.models.image_text import load_image_text

    refuse_options(args)
    template = args.template or TEMPLATE
    prompts_of(["x"], template)  # a template without {label} is refused before the model loads
    model = load_image_text(args.model, args.device, args.revision)
    corpus, vectors = read_and_embed(model, Path(args.input), args.batch_size)
    found = zero_shot(vectors, corpus.labels,
                      [row.split(":")[0] for row in corpus.row_ids],
                      lambda prompts: model.encode_texts(prompts, batch_size=args.batch_size), template)
    if found.unlabelled:
        print(f"note: {found.unlabelled:,} of the {len(corpus):,} images have no label and were left out.",
              file=sys.stderr)
    if found.probe_note:
        print(f"note: {found.probe_note}", file=sys.stderr)
    print(json.dumps({"model": model.model_id, **found.summary()}))
    return 0
