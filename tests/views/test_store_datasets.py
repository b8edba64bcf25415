"""A LanceDB table listed in explorer.toml, on the pages that list datasets (AppTest): Retrieval answers from its
vectors (checked against a NumPy search over them), the Map colours by its metadata, and "What each layer knows"
probes a metadata column as labels (its blanks said) and tags the mislabels where the Map page shows them. The messy
labelled texts (repeats, blank labels), embedded by the packaged model, in a real LanceDB folder; one store before
and after a date is two sets on the map."""

import datetime

import pandas as pd
import pytest

from core.data.datasets import dataset_info
from core.data.labels import TagStore, dataset_scope
from core.data.rows import ROW_ID, text_row_ids
from core.data.sampling import sample_indices
from core.data.stores.reading import write_store
from core.data.vectors import VectorCorpus
from core.deployment import load_config
from core.encoding.encoder import encode_with
from core.jobs import JOBS
from core.settings import Settings
from tests.canvases import canvas
from tests.conftest import app_test
from tests.extras import extra_module
from tests.messy import messy
from tests.views.test_datasets import QUERY, numpy_top

extra_module("lancedb", "The vector stores' clients are an optional extra: `make stores`")
pytestmark = pytest.mark.usefixtures("one_omp_thread")
PROBED = 150
PLANTED = 12  # sampled rows whose genre the store holds wrong: the probe's mislabels to find


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return pd.read_csv(messy("labelled.csv"), keep_default_na=False)


@pytest.fixture(scope="module")
def embedded(minilm, table):
    return encode_with(minilm, table["text"].tolist(), Settings()).vectors


def planted(table: pd.DataFrame) -> pd.Series:
    """The genres with PLANTED sampled, labelled rows given another genre."""
    genres = table["genre"].copy()
    sampled = [i for i in sample_indices(len(table), limit=PROBED, seed=0) if genres.iloc[i]][:PLANTED]
    names = sorted(set(genres) - {""})
    for i in sampled:
        genres.iloc[i] = names[(names.index(genres.iloc[i]) + 1) % len(names)]
    return genres


def days(n: int) -> list[str]:
    """One day a row from 2024-1-1, written without leading zeros: as text, 2024-10-1 sorts before 2024-2-1."""
    return [f"{day.year}-{day.month}-{day.day}" for day in
            (datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(n))]


@pytest.fixture
def listed(tmp_path, monkeypatch, table, embedded):
    uri = f"lancedb://{tmp_path / 'lance'}/docs"
    texts = table["text"].tolist()
    write_store(uri, VectorCorpus(texts, embedded, pd.DataFrame({ROW_ID: text_row_ids(texts),
                                                                 "genre": planted(table), "day": days(len(texts))})))
    monkeypatch.setenv("EXPLORER_DATASETS", f"{tmp_path / 'gone'} {uri}")
    load_config.cache_clear()
    yield uri
    monkeypatch.delenv("EXPLORER_DATASETS")
    load_config.cache_clear()


def test_retrieval_answers_a_query_from_a_listed_stores_vectors(listed, table, embedded, minilm):
    at = app_test("views/retrieval.py")
    assert any("gone does not exist" in w.value for w in at.warning)  # a folder beside it still said
    at.radio(key="ret_source").set_value("Dataset: docs").run()
    assert not at.exception and not at.error
    found = at.dataframe[0].value
    query = encode_with(minilm, [QUERY], Settings()).vectors[0]
    top = numpy_top(embedded, query, 10)  # a repeated text ties with itself: the order among equal rows is free
    assert found["text"].tolist() == [table["text"].iloc[i] for i in top]
    assert found["text"].tolist() == [table["text"].iloc[i] for i in found["index"]]


def test_the_map_colours_a_store_by_its_metadata(listed, table):
    at = app_test("views/map.py", map_source="dataset:docs", map_colour="genre")
    while JOBS.unfinished():
        assert JOBS.wait_idle(600)
        at.run()
    assert not at.exception and not at.error
    assert canvas(at).legend() == planted(table).value_counts().to_dict()  # blank labels a colour of their own


def test_a_stores_metadata_is_probed_as_labels_and_its_mislabels_tagged_where_the_map_shows_them(listed, table):
    at = app_test("views/probes.py")
    at.radio(key="probe_source").set_value("dataset:docs").run()
    at.number_input(key="probe_dataset_size").set_value(PROBED).run()
    at.selectbox(key="probe_dataset_label").set_value("genre").run()
    assert JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    sampled = table.iloc[sample_indices(len(table), limit=PROBED, seed=0)]
    blanks = int((sampled["genre"] == "").sum())
    assert blanks > 0 and any(f"{blanks} of the {PROBED} rows have a blank label" in i.value for i in at.info)
    mislabels = next(frame.value for frame in at.dataframe if "probability of its label" in frame.value.columns)
    assert len(mislabels) > 0
    at.button(key="probe_tag").click().run()
    info = dataset_info(listed)
    tagged = TagStore().tags(dataset_scope(info.name, info.version))["possible mislabel"]
    assert len(tagged) == len(mislabels) and tagged <= set(text_row_ids(table["text"].tolist()))
    link = next(link for link in at.get("page_link") if "Embedding map" in link.proto.label)
    assert "its view of docs holds all of them" in link.proto.label
    shown = app_test("views/map.py", map_source="dataset:docs", map_colour="tag: possible mislabel")
    while JOBS.unfinished():
        assert JOBS.wait_idle(600)
        shown.run()
    assert canvas(shown).legend().get("possible mislabel") == len(tagged)


def test_one_store_before_and_after_a_date_is_two_sets_on_the_map(listed, table):
    stamps = days(len(table))
    cut = 80  # the reference set: the first 80 days, fewer than a set's 100 texts; the new set: every later day
    at = app_test("views/map.py", map_source="sets", map_set_size="100", map_set_reference="dataset:docs",
                  map_set_new="dataset:docs", map_set_reference_where="day", map_set_reference_from=stamps[0],
                  map_set_reference_to=stamps[cut - 1], map_set_new_where="day", map_set_new_from=stamps[cut],
                  map_set_new_to=stamps[-1])
    while JOBS.unfinished():
        assert JOBS.wait_idle(600)
        at.run()
    assert not at.exception and not at.error
    assert any(f"80 of docs's 370 rows have a day from 2024-1-1 to {stamps[cut - 1]} (read as dates)" in c.value
               for c in at.caption)
    assert canvas(at).legend() == {"reference": cut, "new": 100}
    later = set(table["text"].iloc[cut:])
    farthest = next(frame.value for frame in at.dataframe if frame.value.columns.tolist() == ["text", "distance"])
    assert set(farthest["text"]) <= later  # the new set's texts farthest from the reference: all after the cut
