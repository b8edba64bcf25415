"""Dataset folders that explorer.toml lists, on Retrieval and the map: answered from the dataset, the index named,
checked against a NumPy search over the same vectors."""

import numpy as np
import pandas as pd
import pytest

from core.analysis import vector_index
from core.data.datasets import Manifest, write_manifest
from core.data.sampling import sample_indices
from core.data.stsb import stsb_corpus
from core.data.vectors import VectorCorpus, to_parquet
from core.deployment import load_config
from core.encoding.encoder import encode_with
from core.jobs import JOBS
from core.scale.inputs import filesystem
from core.settings import Settings
from tests.conftest import app_test

pytestmark = pytest.mark.usefixtures("one_omp_thread")  # HNSW graphs the same on every run

PAGE = "views/retrieval.py"
QUERY = "A man is playing a guitar."


@pytest.fixture(scope="module")
def embedded(minilm):
    texts = list(stsb_corpus()[:400])
    return texts, encode_with(minilm, texts, Settings()).vectors


def write_dataset(folder, texts, vectors, model_id):
    folder.mkdir(parents=True)
    frame = pd.DataFrame({"genre": ["news"] * len(texts)})
    (folder / "part-0.parquet").write_bytes(to_parquet(VectorCorpus(texts, vectors, frame)))
    write_manifest(*filesystem(str(folder)), Manifest(Settings(model_id=model_id)))


@pytest.fixture
def listed(tmp_path, monkeypatch, embedded):
    texts, vectors = embedded
    write_dataset(tmp_path / "sts", texts, vectors, "all-MiniLM-L6-v2")
    write_dataset(tmp_path / "elsewhere", texts, vectors, "a-model-this-server-lacks")
    write_dataset(tmp_path / "broken", texts[:5], vectors[:5], "all-MiniLM-L6-v2")
    (tmp_path / "broken" / "zz-corrupt.parquet").write_bytes(b"garbage")
    folders = [tmp_path / name for name in ("sts", "elsewhere", "gone", "broken")]
    monkeypatch.setenv("EXPLORER_DATASETS", ":".join(map(str, folders)))
    load_config.cache_clear()
    yield
    monkeypatch.delenv("EXPLORER_DATASETS")
    load_config.cache_clear()


def numpy_top(vectors: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.argsort(-(unit @ (query / np.linalg.norm(query))))[:k].tolist()


def test_a_listed_dataset_answers_a_typed_query_with_its_own_model_by_exact_search(listed, embedded, minilm, tmp_path):
    at = app_test(PAGE)
    warnings = [w.value for w in at.warning]
    assert any("gone does not exist" in w for w in warnings)
    assert f"The listed dataset folder {tmp_path / 'broken'} holds zz-corrupt.parquet, which is not a Parquet file; " \
           "remove it or embed its input again and the folder is listed again." in warnings
    assert not any("broken" in option for option in at.radio(key="ret_source").options)
    at.radio(key="ret_source").set_value("Dataset: sts").run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    texts, vectors = embedded
    query = encode_with(minilm, [QUERY], Settings()).vectors[0]
    assert table["index"].tolist() == numpy_top(vectors, query, 10)
    assert table["text"].tolist() == [texts[i] for i in table["index"]]
    assert any("answered by exact search over 400 vectors" in c.value for c in at.caption)
    assert any("embedded as the dataset was: all-MiniLM-L6-v2" in c.value for c in at.caption)


def test_a_dataset_of_a_model_the_server_lacks_is_searched_by_its_own_rows(listed, embedded):
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Dataset: elsewhere").run()
    assert any("a-model-this-server-lacks, which this server lacks" in i.value for i in at.info)
    at.number_input(key="ret_dataset_row").set_value(7).run()
    table = at.dataframe[0].value
    texts, vectors = embedded
    assert table["index"].tolist() == numpy_top(vectors, vectors[7], 10)
    assert table["index"].iloc[0] == 7


def test_above_the_threshold_an_hnsw_index_is_built_in_the_queue_and_its_recall_shown(listed, monkeypatch):
    monkeypatch.setattr(vector_index, "EXACT_UP_TO", 100)
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Dataset: sts").run()
    assert JOBS.wait_idle(300)
    at.run()
    assert not at.exception and not at.error
    caption = next(c.value for c in at.caption if "answered by FAISS HNSW" in c.value)
    assert "recall@10 against exact search" in caption
    assert len(at.dataframe[0].value) == 10


def test_the_map_draws_a_seeded_sample_and_finds_the_querys_neighbours_in_the_whole_dataset(listed, embedded):
    at = app_test("views/map.py")
    at.radio(key="map_source").set_value("dataset:sts").run()
    at.number_input(key="map_dataset_size").set_value(100).run()
    assert not at.exception and not at.error
    assert any("A seeded random sample of 100 of the dataset's 400 texts" in c.value for c in at.caption)
    rows = sample_indices(400, limit=100, seed=0)
    _, vectors = embedded
    full = at.dataframe[-1].value
    assert full["row"].tolist() == numpy_top(vectors, vectors[rows[0]], len(full))
    assert full["row"].iloc[0] == rows[0]
    assert any("the map shows a sample of 100, so some of these texts may not be on it" in c.value for c in at.caption)


def test_a_file_finished_in_a_listed_folder_appears_on_the_next_rerun(listed, tmp_path, embedded):
    at = app_test(PAGE)
    at.radio(key="ret_source").set_value("Dataset: sts").run()
    assert any("of the 400 texts of sts" in c.value for c in at.caption)
    texts, vectors = embedded
    (tmp_path / "sts" / "part-1.parquet").write_bytes(to_parquet(VectorCorpus(texts[:50], vectors[:50],
                                                                              pd.DataFrame({"genre": ["x"] * 50}))))
    at.run()
    assert not at.exception and not at.error
    assert any("of the 450 texts of sts" in c.value for c in at.caption)


def test_a_listed_dataset_is_one_of_two_sets_compared_on_the_map(listed, embedded):
    from tests.canvases import canvas

    at = app_test("views/map.py", map_source="sets", map_set_size="100", map_set_reference="dev",
                  map_set_new="dataset:sts")
    while JOBS.unfinished():  # the map's vectors, then the comparison
        assert JOBS.wait_idle(600)
        at.run()
    assert not at.exception and not at.error
    assert canvas(at).legend() == {"new": 100, "reference": 100}
    texts, _ = embedded
    sampled = {texts[i] for i in sample_indices(400, limit=100, seed=0)}  # the dataset's seeded sample of 100
    farthest = next(frame.value for frame in at.dataframe if frame.value.columns.tolist() == ["text", "distance"])
    assert len(farthest) == 20 and set(farthest["text"]) <= sampled
