"""Vector stores as corpora, each a real one: LanceDB, Chroma and Qdrant's local mode in a temporary folder, and
PostgreSQL with pgvector started by pgserver in a temporary data folder (its socket on this machine; once more on
127.0.0.1 with a password, as a user's `postgresql://USER@HOST:PORT/DB` reaches a server), stopped at the end. The
messy labelled texts (repeats, blank labels) with seeded vectors written to each come back equal to the bit; their
maps are equal; reading writes nothing; every bad store is one sentence, exit status 2, with no password."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.cli import main
from core.data.rows import ROW_ID, text_row_ids
from core.data.stores import StoreError, parse_store_uri
from core.data.stores.reading import read_store, write_store
from core.data.vectors import VectorCorpus
from tests.extras import extra_module
from tests.messy import messy

pgserver = extra_module("pgserver", "The vector stores' clients are an optional extra: `make stores`")
for client in ("lancedb", "chromadb", "qdrant_client", "psycopg"):
    extra_module(client, "The vector stores' clients are an optional extra: `make stores`")

STORES = ("lancedb", "chroma", "qdrant", "postgresql")


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    """A PostgreSQL server with pgvector, on this machine; its URI (a socket in the data folder)."""
    server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="stop")
    try:
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
        yield server.get_uri()
    finally:
        server.cleanup()


def uri_of(store: str, folder: Path, postgres: str, name: str = "docs") -> str:
    if store == "postgresql":
        return postgres.replace("?", f"?table={name}&", 1)
    return f"{store}://{folder / store}/{name}"


@pytest.fixture(scope="module")
def corpus() -> VectorCorpus:
    table = pd.read_csv(messy("labelled.csv"), keep_default_na=False).head(300)
    texts = table["text"].astype(str).tolist()
    vectors = np.random.default_rng(0).normal(size=(len(texts), 24)).astype(np.float32)
    return VectorCorpus(texts, vectors, pd.DataFrame({ROW_ID: text_row_ids(texts), "genre": table["genre"]}))


@pytest.fixture(scope="module")
def written(tmp_path_factory, postgres, corpus) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("stores")
    uris = {store: uri_of(store, folder, postgres) for store in STORES}
    for uri in uris.values():
        write_store(uri, corpus)
    return uris


def test_the_messy_rows_come_back_from_each_store_equal_to_the_bit(written, corpus):
    assert corpus.metadata[ROW_ID].nunique() == 300 and len(set(corpus.texts)) < 300  # repeated texts, own row ids
    assert (corpus.metadata["genre"] == "").any()  # blank labels
    for store, uri in written.items():
        back = read_store(uri, chunk=70)  # five chunks, the last one short
        assert back.texts == corpus.texts, store
        assert back.vectors.dtype == np.float32 and np.array_equal(back.vectors, corpus.vectors), store
        pd.testing.assert_frame_equal(back.metadata, corpus.metadata, obj=store)


def test_a_row_limit_reads_the_first_rows_only(written, corpus):
    for store, uri in written.items():
        back = read_store(uri, limit=45, chunk=20)
        assert back.texts == corpus.texts[:45] and np.array_equal(back.vectors, corpus.vectors[:45]), store


def test_the_maps_of_any_two_stores_are_equal(written, tmp_path, capsys):
    maps = []
    for store, uri in written.items():
        assert main(["project", "--input", uri, "--output", str(tmp_path / f"{store}.csv")]) == 0
        maps.append((tmp_path / f"{store}.csv").read_bytes())
    assert len(set(maps)) == 1 and maps[0].count(b"\n") == 301


def _digest(folder: Path) -> dict[str, str]:
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.rglob("*"))
            if path.is_file()}


@pytest.mark.parametrize("store", ["lancedb", "qdrant"])
def test_reading_a_store_writes_nothing_to_its_folder(written, store):
    folder = Path(parse_store_uri(written[store]).location)
    before = _digest(folder)
    read_store(written[store])
    assert _digest(folder) == before


@pytest.mark.parametrize("store", STORES)
def test_a_missing_table_or_collection_is_one_sentence_with_exit_status_2(written, store, tmp_path, capsys):
    uri = written[store].replace("docs", "nothing_here")
    assert main(["project", "--input", uri, "--output", str(tmp_path / "map.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nothing_here" in err and err.count("\n") == 1, err
    assert not (tmp_path / "map.csv").exists()


def test_a_hostile_table_name_is_a_missing_table_and_drops_nothing(written, postgres, corpus):
    hostile = postgres.replace("?", "?table=docs; DROP TABLE docs&", 1)
    with pytest.raises(StoreError, match="there is no table named 'docs; DROP TABLE docs'"):
        read_store(hostile)
    assert read_store(written["postgresql"]).texts == corpus.texts


def test_a_wrong_column_names_the_columns_there_are(written):
    for store in ("lancedb", "postgresql"):
        with pytest.raises(StoreError, match="has no column 'embedding' .*row_id, text, vector, genre"):
            read_store(written[store] + ("&" if "?" in written[store] else "?") + "vector=embedding")


def test_a_password_never_reaches_a_message(postgres):
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(StoreError) as raised:
        read_store(f"postgresql://someone:hunter2@127.0.0.1:{port}/db?table=docs")
    assert "hunter2" not in str(raised.value) and "someone:***@" in str(raised.value)
    assert "could not connect to PostgreSQL" in str(raised.value)


PASSWORD = "s3cret-Pw"


@pytest.fixture(scope="module")
def postgres_tcp(tmp_path_factory) -> Iterator[str]:
    """pgserver's PostgreSQL listening on 127.0.0.1 instead of its socket, a password asked of every TCP connection
    (scram-sha-256): the URI a user gives, `postgresql://USER@HOST:PORT/DB`, with no password in it."""
    from pgserver._commands import pg_ctl

    data = tmp_path_factory.mktemp("pg-tcp")
    server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        server.psql(f"CREATE EXTENSION IF NOT EXISTS vector; ALTER USER postgres PASSWORD '{PASSWORD}';")
        hba = Path(server.pgdata) / "pg_hba.conf"
        hba.write_text("host all all 127.0.0.1/32 scram-sha-256\n" + hba.read_text())  # the first line that fits
        closed = socket.create_server(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        closed.close()
        pg_ctl(["-w", "-o", f"-h 127.0.0.1 -p {port}", "-l", str(Path(server.pgdata) / "tcp.log"), "restart"],
               pgdata=server.pgdata, user=server.system_user, timeout=60)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        server.cleanup()


def test_a_server_on_loopback_takes_its_password_from_pgpassword_or_a_pgpass_file(postgres_tcp, corpus, tmp_path,
                                                                                   monkeypatch, capsys):
    uri = f"{postgres_tcp}?table=tcp_docs"
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    with pytest.raises(StoreError, match="the password was refused or is missing"):
        write_store(uri, corpus)
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    write_store(uri, corpus)
    monkeypatch.delenv("PGPASSWORD")
    passfile = tmp_path / "pgpass"
    port = postgres_tcp.rsplit(":", 1)[1].split("/")[0]
    passfile.write_text(f"127.0.0.1:{port}:*:postgres:{PASSWORD}\n")
    passfile.chmod(0o600)  # libpq ignores a file others can read
    monkeypatch.setenv("PGPASSFILE", str(passfile))
    back = read_store(uri)
    assert back.texts == corpus.texts and np.array_equal(back.vectors, corpus.vectors)
    monkeypatch.setenv("PGPASSWORD", "wrong-one")
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    assert main(["search", "--input", uri, "--query", "guitar", "--model", "all-MiniLM-L6-v2"]) == 2
    said = capsys.readouterr().err
    assert "the password was refused or is missing (set PGPASSWORD or ~/.pgpass)" in said
    assert "wrong-one" not in said and PASSWORD not in said and "Traceback" not in said


def test_a_qdrant_server_nobody_answers_is_said_in_one_sentence():
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(StoreError, match="did not answer"):
        read_store(f"qdrant+http://127.0.0.1:{port}/docs")


def test_a_store_is_not_replaced_unless_asked(written, corpus):
    for store, uri in written.items():
        with pytest.raises(StoreError, match="exists already; give --overwrite"):
            write_store(uri, VectorCorpus(corpus.texts[:3], corpus.vectors[:3], corpus.metadata.head(3)))
        assert len(read_store(uri).texts) == 300, store


@pytest.mark.parametrize("store", ["chroma", "qdrant"])
def test_a_write_that_fails_halfway_leaves_no_collection_and_an_old_one_whole(store, tmp_path, corpus, monkeypatch):
    """Chroma and Qdrant write a batch at a time (LanceDB writes a table at once, PostgreSQL in one transaction)."""
    import chromadb.api.models.Collection
    import qdrant_client

    from core.data.stores import qdrant

    monkeypatch.setattr(qdrant, "BATCH", 100)
    owner, method = ((chromadb.api.models.Collection.Collection, "add") if store == "chroma" else
                     (qdrant_client.QdrantClient, "upsert"))
    real, calls = getattr(owner, method), []

    def second_fails(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError("No space left on device")
        return real(self, *args, **kwargs)

    uri = f"{store}://{tmp_path / store}/docs"
    old = VectorCorpus(corpus.texts[:5], corpus.vectors[:5], corpus.metadata.head(5))
    write_store(uri, old)
    if store == "chroma":  # small batches, as the Qdrant writer's
        monkeypatch.setattr(chromadb.api.client.Client, "get_max_batch_size", lambda self: 100)
    monkeypatch.setattr(owner, method, second_fails)
    with pytest.raises(OSError):
        write_store(uri.replace("/docs", "/new"), corpus)
    calls.clear()
    with pytest.raises(OSError):
        write_store(uri, corpus, overwrite=True)
    monkeypatch.undo()
    with pytest.raises(StoreError, match="no collection named 'new'"):
        read_store(uri.replace("/docs", "/new"))
    if store == "chroma":  # written under another name and renamed once whole: the old collection is kept
        assert read_store(uri).texts == old.texts
        client = chromadb.PersistentClient(str(tmp_path / store),
                                           settings=chromadb.config.Settings(anonymized_telemetry=False))
        assert [c.name for c in client.list_collections()] == ["docs"]
    else:  # Qdrant renames nothing: the old one was deleted before the write, and none is left
        with pytest.raises(StoreError, match="no collection named 'docs'"):
            read_store(uri)


def test_without_the_extra_a_store_uri_names_make_stores(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "lancedb", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(StoreError, match="run `make stores`"):
        read_store(f"lancedb://{tmp_path}/docs")


@pytest.fixture(scope="module")
def embedded(tmp_path_factory, postgres) -> tuple[list[str], dict[str, str]]:
    """60 messy texts written by `core embed` into each store (each refused a second time, before any work)."""
    folder = tmp_path_factory.mktemp("embedded")
    texts = pd.read_csv(messy("labelled.csv"), keep_default_na=False)["text"].head(60).str.replace("\n", " ")
    (folder / "texts.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    uris = {store: uri_of(store, folder, postgres, name="embedded") for store in STORES}
    for uri in uris.values():
        embed = ["embed", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(folder / "texts.txt"),
                 "--output", uri]
        assert main(embed) == 0
        assert main(embed) == 2  # exists already: refused
    return texts.tolist(), uris


def test_embed_writes_a_store_that_check_store_finds_to_match_its_model(embedded, capsys):
    texts, uris = embedded
    for store, uri in uris.items():
        assert main(["check-store", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", uri, "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["verdict"] == "matches" and record["agree_share"] == 1.0, store
        assert read_store(uri).metadata[ROW_ID].tolist() == text_row_ids(texts)


def test_search_over_a_store_finds_the_top_10_of_the_stores_own_exact_search(embedded, minilm, capsys):
    import lancedb
    import psycopg
    from pgvector.psycopg import register_vector
    from sentence_transformers import SentenceTransformer

    query = "A man is playing music."
    wanted = SentenceTransformer(str(minilm.folder), device="cpu").encode_query([query])[0]
    _, uris = embedded
    lance = parse_store_uri(uris["lancedb"])
    own = {"lancedb": lancedb.connect(lance.location).open_table("embedded").search(wanted).distance_type("cosine")
           .limit(10).to_pandas()[ROW_ID].tolist()}
    pg = parse_store_uri(uris["postgresql"])
    with psycopg.connect(pg.location) as conn:
        register_vector(conn)
        own["postgresql"] = [row[0] for row in conn.execute(
            "SELECT row_id FROM embedded ORDER BY vector <=> %s LIMIT 10", (wanted,)).fetchall()]
    for store, uri in uris.items():
        assert main(["search", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", uri, "--query", query,
                     "--k", "10"]) == 0
        found = [hit[ROW_ID] for hit in json.loads(capsys.readouterr().out)["results"]]
        assert found == own.get(store, own["lancedb"]), store


def test_a_query_model_of_another_width_is_one_sentence_with_exit_status_2(written, capsys):
    assert main(["search", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", written["lancedb"],
                 "--query", "a cat"]) == 2
    err = capsys.readouterr().err
    assert "gives 384 dimensions and the stored vectors have 24" in err and err.count("\n") == 1


def test_probe_and_drift_read_a_stores_texts_and_metadata_as_they_read_a_file(tmp_path, capsys):
    labelled = pd.read_csv(messy("labelled.csv"), keep_default_na=False)
    texts = labelled["text"].astype(str).tolist()
    vectors = np.zeros((len(texts), 4), np.float32)  # stored vectors the model does not read: it embeds the texts
    write_store(f"lancedb://{tmp_path}/docs", VectorCorpus(texts, vectors, labelled[["genre"]]))
    results = []
    for source in (f"lancedb://{tmp_path}/docs", str(messy("labelled.csv"))):
        assert main(["probe", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", source, "--label-column",
                     "genre", "--layers", "6", "--json"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1] and results[0]["n"] < len(texts)  # blank labels left out from either
    sets = {}
    for name in ("reference", "current"):
        lines = messy(f"{name}.txt").read_text(encoding="utf-8").splitlines()
        write_store(f"lancedb://{tmp_path}/{name}", VectorCorpus(lines, np.zeros((len(lines), 4), np.float32),
                                                                 pd.DataFrame(index=range(len(lines)))))
        sets[name] = (f"lancedb://{tmp_path}/{name}", str(messy(f"{name}.txt")))
    drifts = []
    for reference, current in zip(sets["reference"], sets["current"]):
        assert main(["drift", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--reference", reference,
                     "--current", current, "--json"]) == 0
        drifts.append(json.loads(capsys.readouterr().out))
    assert drifts[0] == drifts[1]


@pytest.mark.skipif(not os.environ.get("QDRANT_URL"), reason="no Qdrant server here: set QDRANT_URL=http://HOST:PORT "
                                                             "to test the server mode against one")
def test_a_qdrant_server_reads_back_what_was_written(corpus):
    name = f"explorer_test_{os.getpid()}"
    uri = f"qdrant+{os.environ['QDRANT_URL'].rstrip('/')}/{name}"
    from qdrant_client import QdrantClient

    try:
        write_store(uri, corpus)
        back = read_store(uri)
        assert back.texts == corpus.texts and np.array_equal(back.vectors, corpus.vectors)
        pd.testing.assert_frame_equal(back.metadata, corpus.metadata)
    finally:
        QdrantClient(url=os.environ["QDRANT_URL"], check_compatibility=False).delete_collection(name)
