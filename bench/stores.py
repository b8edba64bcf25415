"""Reading a vector store: 1,000,000 seeded 384-dimensional vectors with their ids and texts, from LanceDB (a
folder) and from PostgreSQL with pgvector (pgserver, on this machine). Ours is `core.data.stores.reading.read_store`
(LanceDB's scan in record batches, a server-side cursor in chunks, into one array); the anchor is the store's own
client read to numpy the plainest way (LanceDB's `to_pandas` and `np.stack`; psycopg's `fetchall` and `np.stack`).
Each side's best of interleaved runs, and both read the same vectors."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from bench.common import Row, interleaved_best

ROWS, WIDTH = 1_000_000, 384


def _corpus():
    from core.data.vectors import VectorCorpus

    vectors = np.random.default_rng(0).normal(size=(ROWS, WIDTH)).astype(np.float32)
    ids = [f"{i:07d}" for i in range(ROWS)]
    return VectorCorpus([f"text {i}" for i in range(ROWS)], vectors, pd.DataFrame({"row_id": ids}))


def bench_stores(rows: list[Row]) -> None:
    import lancedb
    import pgserver
    import psycopg
    from pgvector.psycopg import register_vector

    from core.data.stores import parse_store_uri
    from core.data.stores.reading import read_store, write_store

    corpus = _corpus()
    with tempfile.TemporaryDirectory() as tmp:
        server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
        try:
            uris = {"LanceDB": f"lancedb://{tmp}/lance/docs",
                    "PostgreSQL + pgvector": server.get_uri().replace("?", "?table=docs&", 1)}
            for uri in uris.values():
                write_store(uri, corpus)
            found: dict[str, np.ndarray] = {}

            def plain_lance() -> None:
                frame = lancedb.connect(f"{tmp}/lance").open_table("docs").to_pandas()
                found["theirs"] = np.stack(frame["vector"].to_numpy()).astype(np.float32)

            def plain_postgres() -> None:
                with psycopg.connect(parse_store_uri(uris["PostgreSQL + pgvector"]).location) as conn:
                    register_vector(conn)
                    fetched = conn.execute("SELECT row_id, text, vector FROM docs").fetchall()
                found["theirs"] = np.stack([row[2].to_numpy() for row in fetched]).astype(np.float32)

            for (name, uri), plain in zip(uris.items(), (plain_lance, plain_postgres)):
                def ours(uri: str = uri) -> None:
                    found["ours"] = read_store(uri).vectors

                ours_s, theirs_s = interleaved_best(ours, plain, repeats=2)
                assert np.array_equal(found["ours"], found["theirs"]) and np.array_equal(found["ours"], corpus.vectors)
                rows.append(Row(f"Read {ROWS:,} × {WIDTH} vectors with ids and texts from {name}, "
                                "`--input URI`'s path (chunks into one array)",
                                f"{ours_s:.1f} s",
                                f"the store's own client, the plainest read to numpy: {theirs_s:.1f} s",
                                f"{theirs_s / ours_s:.2f}× (goal: 1.0× or more)",
                                {"ours_s": ours_s, "theirs_s": theirs_s, "rows": ROWS}))
        finally:
            server.cleanup()
