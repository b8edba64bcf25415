"""A PostgreSQL table with a pgvector column: `postgresql://USER@HOST:PORT/DB?table=T&vector=COLUMN&text=COLUMN`,
read through a server-side cursor a chunk at a time, in a read-only transaction. Table and column names are quoted
identifiers and values bound parameters, never pasted into SQL. A password comes from PGPASSWORD or ~/.pgpass
(libpq reads them); one given in the URI is never printed."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from core.data.stores import StoreError, StoreUri
from core.data.stores.reading import StoredRows

TIMEOUT = 10  # seconds a server has to answer


def _connect(uri: StoreUri, *, read_only: bool) -> psycopg.Connection:
    try:
        conn = psycopg.connect(uri.location, connect_timeout=TIMEOUT)
    except psycopg.OperationalError as err:
        reason = str(err).replace(uri.location, uri.shown).splitlines()[-1].strip() or type(err).__name__
        if "password" in reason.lower():
            reason = "the password was refused or is missing (set PGPASSWORD or ~/.pgpass)"
        raise StoreError(f"{uri.shown}: could not connect to PostgreSQL ({reason}).") from err
    conn.read_only = read_only
    return conn


def _columns(conn: psycopg.Connection, uri: StoreUri) -> list[str]:
    """The table's columns in order; StoreError where there is no such table."""
    found = conn.execute("SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attnum > 0 "
                         "AND NOT attisdropped ORDER BY attnum", (sql.Identifier(uri.name).as_string(conn),))
    names = [row[0] for row in found.fetchall()]
    if not names:
        raise StoreError(f"{uri.shown}: there is no table named {uri.name!r}.")
    return names


def _vector_ready(conn: psycopg.Connection, uri: StoreUri) -> None:
    try:
        register_vector(conn)
    except psycopg.ProgrammingError as err:
        raise StoreError(f"{uri.shown}: the database lacks the vector extension (pgvector); run CREATE EXTENSION "
                         "vector there.") from err


def count(uri: StoreUri) -> int:
    with _connect(uri, read_only=True) as conn:
        _columns(conn, uri)
        found = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(uri.name))).fetchone()
        return int(found[0]) if found else 0


def chunks(uri: StoreUri, *, limit: int | None, chunk: int) -> Iterator[StoredRows]:
    with _connect(uri, read_only=True) as conn:
        _vector_ready(conn, uri)
        names = _columns(conn, uri)
        for column, option in ((uri.text, "text"), (uri.vector, "vector")):
            if column not in names:
                raise StoreError(f"{uri.shown} has no column {column!r} (it has {', '.join(names)}); name the "
                                 f"column with &{option}=COLUMN.")
        own = uri.id if uri.id in names else None
        rest = [name for name in names if name not in (uri.text, uri.vector, own)]
        picked = [*([own] if own else []), uri.text, uri.vector, *rest]
        query = sql.SQL("SELECT {} FROM {}").format(sql.SQL(", ").join(map(sql.Identifier, picked)),
                                                   sql.Identifier(uri.name))
        if limit is not None:
            query = sql.SQL("{} LIMIT {}").format(query, sql.Literal(limit))
        with conn.cursor(name="explorer_read", binary=True) as cursor:  # pgvector's binary loader: no text parsed
            cursor.execute(query)
            while rows := cursor.fetchmany(chunk):
                columns = list(zip(*rows))
                ids = [str(value) for value in columns.pop(0)] if own else []
                texts = ["" if text is None else str(text) for text in columns[0]]
                if any(vector is None for vector in columns[1]):
                    raise StoreError(f"Some rows of {uri.shown} have no vector in {uri.vector!r}; fill or remove them.")
                vectors = [vector.to_numpy() for vector in columns[1]]
                if len({len(vector) for vector in vectors}) > 1:
                    raise StoreError(f"The vectors in {uri.vector!r} of {uri.shown} are not all of one length.")
                yield StoredRows(ids, texts, np.asarray(vectors, dtype=np.float32),
                                 dict(zip(rest, map(list, columns[2:]))))


def write(uri: StoreUri, rows: StoredRows, *, overwrite: bool) -> None:
    with _connect(uri, read_only=False) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        _vector_ready(conn, uri)
        table = sql.Identifier(uri.name)
        if overwrite:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))
        meta = list(rows.metadata)
        conn.execute(sql.SQL("CREATE TABLE {} ({} text PRIMARY KEY, {} text, {} vector({}){})").format(
            table, sql.Identifier(uri.id), sql.Identifier(uri.text), sql.Identifier(uri.vector),
            sql.Literal(rows.vectors.shape[1]),
            sql.SQL("").join(sql.SQL(", {} text").format(sql.Identifier(name)) for name in meta)))
        columns = sql.SQL(", ").join(map(sql.Identifier, [uri.id, uri.text, uri.vector, *meta]))
        with conn.cursor().copy(sql.SQL("COPY {} ({}) FROM STDIN WITH (FORMAT BINARY)").format(table, columns)) as copy:
            copy.set_types(["text", "text", "vector", *["text"] * len(meta)])
            for place, text in enumerate(rows.texts):
                copy.write_row([rows.ids[place], text, rows.vectors[place],
                                *(rows.metadata[name][place] for name in meta)])
