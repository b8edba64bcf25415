"""Vector stores as corpora: a LanceDB table, a Chroma collection, a Qdrant collection (a local folder or a server) or
a PostgreSQL table with pgvector, named by a URI, read in chunks into a VectorCorpus (ids, texts, vectors and
metadata columns) and written from one. The clients are an optional extra (`make stores`); a URI without them is
refused in one sentence. Reading never writes to a store; writing refuses to replace a table unless asked.

    lancedb://FOLDER/TABLE
    chroma://FOLDER/COLLECTION
    qdrant://FOLDER/COLLECTION                 qdrant+http://HOST:PORT/COLLECTION
    postgresql://USER@HOST:PORT/DB?table=T&vector=COLUMN&text=COLUMN[&id=COLUMN]

Any of them takes `?text=`, `?vector=` and `?id=`: the column (or payload key) that holds each, by default `text`,
`vector` and `row_id` (a store without such an id gets "row N" by its place)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

SCHEMES = {"lancedb": "lance", "chroma": "chroma", "qdrant": "qdrant", "qdrant+http": "qdrant",
           "postgresql": "postgres", "postgres": "postgres"}
CLIENTS = {"lance": "lancedb", "chroma": "chromadb", "qdrant": "qdrant_client", "postgres": "psycopg"}
OWN_PARAMETERS = ("text", "vector", "id", "table")
LOCAL = ("lancedb", "chroma", "qdrant")  # the schemes whose location is a folder


class StoreError(ValueError):
    """A store that cannot be opened, read or written, in one sentence."""


@dataclass(frozen=True)
class StoreUri:
    """A parsed store URI. `location`: the folder, the server's address or the PostgreSQL connection URI without this
    project's parameters; `shown`: the URI as messages print it (any password left out)."""

    scheme: str
    location: str
    name: str
    text: str = "text"
    vector: str = "vector"
    id: str = "row_id"
    shown: str = ""

    @property
    def module(self) -> str:
        return SCHEMES[self.scheme]


def is_store_uri(text: str) -> bool:
    return urlsplit(str(text)).scheme in SCHEMES


def anchored(uri: str, root: Path) -> str:
    """`uri` with a store folder's relative path (`lancedb://data/docs/T`) made absolute under `root`."""
    parts = urlsplit(uri)
    if parts.scheme not in LOCAL or not parts.netloc:  # a server, or an absolute folder (`lancedb:///data/docs/T`)
        return uri
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{(root / (parts.netloc + parts.path)).resolve()}{query}"


def _without_password(uri: str) -> str:
    parts = urlsplit(uri)
    if not parts.password:
        return uri
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def parse_store_uri(uri: str) -> StoreUri:
    parts = urlsplit(uri)
    shown = _without_password(uri)
    if parts.scheme not in SCHEMES:
        raise StoreError(f"{shown} is not a store URI; start it with one of {', '.join(s + '://' for s in SCHEMES)}.")
    params = dict(parse_qsl(parts.query, keep_blank_values=True))
    columns = {key: params[key] for key in ("text", "vector", "id") if params.get(key)}
    if SCHEMES[parts.scheme] == "postgres":
        table = params.get("table", "")
        if not table:
            raise StoreError(f"{shown} names no table; add ?table=NAME (and &vector=COLUMN&text=COLUMN where they are "
                             "not named vector and text).")
        rest = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True)
                if key not in OWN_PARAMETERS]
        location = parts._replace(query=urlencode(rest)).geturl()
        return StoreUri(parts.scheme, location, table, shown=shown, **columns)
    path = (parts.netloc + parts.path) if parts.scheme != "qdrant+http" else parts.path
    folder, _, name = path.rstrip("/").rpartition("/")
    if not name:
        raise StoreError(f"{shown} names no table or collection; end it with /NAME.")
    location = f"http://{parts.netloc}" if parts.scheme == "qdrant+http" else folder
    return StoreUri(parts.scheme, location, name, shown=shown, **columns)
