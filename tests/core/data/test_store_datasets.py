"""A vector store listed in explorer.toml as a dataset, beside folders: listed by its table's name with its count, or
one sentence where it does not open; opened equal to what its own client reads; a row added gives it a new version;
never opened unless listed. The messy labelled texts (repeats, blank labels) with seeded vectors, in a real LanceDB
folder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.data.datasets import DatasetError, dataset_sources, listed_datasets, open_dataset, source_version
from core.data.rows import ROW_ID, text_row_ids
from core.data.stores import anchored
from core.data.stores.reading import write_store
from core.data.vectors import VectorCorpus
from core.deployment import CONFIG_FILE, load_config
from tests.extras import extra_module
from tests.messy import messy

lancedb = extra_module("lancedb", "The vector stores' clients are an optional extra: `make stores`")


@pytest.fixture
def store(tmp_path) -> tuple[str, VectorCorpus]:
    table = pd.read_csv(messy("labelled.csv"), keep_default_na=False)
    texts = table["text"].astype(str).tolist()
    vectors = np.random.default_rng(0).normal(size=(len(texts), 16)).astype(np.float32)
    corpus = VectorCorpus(texts, vectors, pd.DataFrame({ROW_ID: text_row_ids(texts), "genre": table["genre"]}))
    uri = f"lancedb://{tmp_path / 'lance'}/docs"
    write_store(uri, corpus)
    return uri, corpus


def test_a_listed_store_is_a_dataset_named_by_its_table_and_opens_as_its_own_client_reads_it(store, tmp_path):
    uri, corpus = store
    missing = f"lancedb://{tmp_path / 'lance'}/gone"
    found, problems = listed_datasets([uri, missing])
    assert [(info.name, info.rows, info.source) for info in found] == [("docs", len(corpus.texts), uri)]
    assert found[0].label == f"docs ({len(corpus.texts):,} texts, vectors of a store)"
    assert problems == [f"{missing}: the folder holds no table named 'gone'."]
    dataset = open_dataset(uri, [uri, missing])
    own = lancedb.connect(str(tmp_path / "lance")).open_table("docs").to_arrow()  # LanceDB's own reading
    assert dataset.table.column("text").to_pylist() == own.column("text").to_pylist()
    assert np.array_equal(dataset.vectors, np.asarray(own.column("vector").to_pylist(), dtype=np.float32))
    assert dataset.table.column(ROW_ID).to_pylist() == own.column(ROW_ID).to_pylist()
    genres = dataset.table.column("genre").to_pylist()
    assert genres == own.column("genre").to_pylist() and "" in genres  # blank labels stay blank


def test_a_row_added_gives_the_store_a_new_version_and_the_dataset_its_rows(store, tmp_path):
    uri, corpus = store
    before = source_version(uri)
    assert before == source_version(uri) != ""
    grown = pd.read_csv(messy("labelled_grown.csv"), keep_default_na=False)
    extra = grown.iloc[len(corpus.texts):]
    assert len(extra) >= 1
    lancedb.connect(str(tmp_path / "lance")).open_table("docs").add(pd.DataFrame({
        ROW_ID: text_row_ids(extra["text"].tolist()), "text": extra["text"],
        "vector": list(np.ones((len(extra), 16), dtype=np.float32)), "genre": extra["genre"]}))
    assert source_version(uri) not in ("", before)
    dataset = open_dataset(uri, [uri])
    assert len(dataset.vectors) == len(grown) and np.array_equal(dataset.vectors[-1], np.ones(16, np.float32))


def test_a_store_not_listed_is_never_opened(store):
    uri, _ = store
    with pytest.raises(DatasetError, match="is not a listed store; add it to `datasets` in explorer.toml"):
        open_dataset(uri, [uri.replace("/docs", "/other")])


def test_store_uris_in_the_deployment_keep_their_colons_and_a_relative_folder_starts_at_the_repo_root(
        tmp_path, monkeypatch):
    def listed(raw: str) -> tuple[str, ...]:
        monkeypatch.setenv("EXPLORER_DATASETS", raw)
        load_config.cache_clear()
        return load_config().datasets

    try:
        assert listed(f"{tmp_path}/a:{tmp_path}/b") == (f"{tmp_path}/a", f"{tmp_path}/b")
        found = listed(f"{tmp_path}/folder lancedb://data/lance/docs postgresql://me@db:5432/x?table=t")
        assert found == (f"{tmp_path}/folder", "lancedb://data/lance/docs", "postgresql://me@db:5432/x?table=t")
        assert dataset_sources(load_config()) == [f"{tmp_path}/folder",
                                                  f"lancedb://{CONFIG_FILE.parent / 'data/lance'}/docs",
                                                  "postgresql://me@db:5432/x?table=t"]  # a server's URI as given
    finally:
        monkeypatch.delenv("EXPLORER_DATASETS")
        load_config.cache_clear()
    assert anchored("chroma:///abs/place/c?text=body", tmp_path) == "chroma:///abs/place/c?text=body"
    assert anchored("qdrant://rel/c?text=body", tmp_path) == f"qdrant://{tmp_path / 'rel'}/c?text=body"
