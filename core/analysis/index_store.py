"""HNSW indexes kept on disk, keyed by the content hash of the vectors and the index parameters (with a format
version): a restart reads the graph instead of building it again. Written atomically; a file that does not read
back is built again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from core.analysis.search import unit_rows
from core.analysis.vector_index import IndexParams, Progress, VectorIndex, build_index
from core.hashing import array_digest
from core.paths import atomic_write, cache_dir

VERSION = 2  # 2: efSearch raised at build time until recall@10 reaches TARGET_RECALL


def index_key(vectors: np.ndarray, params: IndexParams) -> str:
    return array_digest(vectors, {"version": VERSION, **params.options()})


def _files(key: str) -> tuple[Path, Path]:
    folder = cache_dir() / "indexes"
    return folder / f"{key}.faiss", folder / f"{key}.json"


def read_graph(key: str) -> tuple[Any, dict] | None:
    """The FAISS index stored under `key` and what was measured of it, or None (missing or unreadable)."""
    graph_file, meta_file = _files(key)
    if not (graph_file.exists() and meta_file.exists()):
        return None
    import faiss

    try:
        return faiss.read_index(str(graph_file)), json.loads(meta_file.read_text())
    except (RuntimeError, ValueError):
        return None


def write_graph(key: str, graph: Any, meta: dict) -> None:
    import faiss

    graph_file, meta_file = _files(key)
    atomic_write(graph_file, lambda tmp: faiss.write_index(graph, str(tmp)))
    atomic_write(meta_file, lambda tmp: tmp.write_text(json.dumps(meta)))


def read_index(key: str, vectors: np.ndarray, params: IndexParams) -> VectorIndex | None:
    """The stored index of these vectors under `key`, or None (nothing is built)."""
    if params.method == "exact":
        return VectorIndex(unit_rows(vectors), params)
    found = read_graph(key)
    if found is None:
        return None
    graph: Any  # an IndexHNSWFlat; faiss's stubs name only the base Index
    graph, meta = found
    if graph.ntotal != len(vectors):
        return None
    tuned = replace(params, ef_search=int(graph.hnsw.efSearch))  # as build_index raised it, kept in the file
    return VectorIndex(unit_rows(vectors), tuned, graph, float(meta["recall_at_10"]))


def stored_index(vectors: np.ndarray, params: IndexParams, progress: Progress | None = None, *,
                 key: str | None = None) -> VectorIndex:
    """`build_index`, read from disk when these vectors were indexed with these parameters before."""
    key = key or index_key(vectors, params)
    found = read_index(key, vectors, params)
    if found is not None:
        return found
    index = build_index(vectors, params, progress)
    if index.graph is not None:
        write_graph(key, index.graph, {"recall_at_10": index.recall_at_10})
    return index
