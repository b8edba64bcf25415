"""Dataset folders as the app opens them: vectors read back equal, one sentence for each folder that cannot open."""

import numpy as np
import pandas as pd
import pytest

from core.data.datasets import (
    DatasetError,
    Manifest,
    dataset_sample,
    folder_version,
    listed_datasets,
    open_dataset,
    write_manifest,
)
from core.data.vectors import VectorCorpus, to_parquet
from core.scale.inputs import filesystem
from core.settings import Settings


def write_part(folder, name, texts, vectors, **columns):
    folder.mkdir(parents=True, exist_ok=True)
    meta = pd.DataFrame(columns) if columns else pd.DataFrame(index=range(len(texts)))
    (folder / f"{name}.parquet").write_bytes(to_parquet(VectorCorpus(texts, vectors, meta)))


def test_a_folder_of_parts_opens_with_its_vectors_texts_and_settings(tmp_path):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 8)).astype(np.float32), rng.standard_normal((2, 8)).astype(np.float32)
    folder = tmp_path / "tickets"
    write_part(folder / "x", "part-0", ["a1", "a2", "a3"], a, genre=["p", "q", "r"])
    write_part(folder / "y", "part-0", ["b1", "b2"], b, genre=["s", "t"])
    write_manifest(*filesystem(str(folder)), Manifest(Settings(pooling="mean", normalize=True)))
    dataset = open_dataset(folder, [folder])
    np.testing.assert_array_equal(dataset.vectors, np.vstack([a, b]))
    assert not dataset.vectors.flags.writeable  # memory-mapped, shared read-only
    assert dataset.texts([4, 0]) == ["b2", "a1"]
    assert dataset.table.column("genre").to_pylist() == ["p", "q", "r", "s", "t"]
    assert dataset.info.label == "tickets (5 texts, all-MiniLM-L6-v2, mean pooling)"
    again = open_dataset(folder, [folder])  # from the cache file
    np.testing.assert_array_equal(again.vectors, dataset.vectors)


def test_files_with_vectors_of_different_dimensions_are_refused(tmp_path):
    write_part(tmp_path / "d", "small", ["a"], np.ones((1, 4), np.float32))
    write_part(tmp_path / "d", "large", ["b"], np.ones((1, 6), np.float32))
    with pytest.raises(DatasetError, match=r"different dimensions \((small|large)\.parquet: 4, .*6\)"):
        open_dataset(tmp_path / "d", [tmp_path / "d"])


def test_a_folder_outside_the_listed_ones_is_refused(tmp_path):
    write_part(tmp_path / "listed", "p", ["a"], np.ones((1, 4), np.float32))
    write_part(tmp_path / "other", "p", ["a"], np.ones((1, 4), np.float32))
    with pytest.raises(DatasetError, match="is not a listed dataset folder"):
        open_dataset(tmp_path / "listed" / ".." / "other", [tmp_path / "listed"])


def test_listed_folders_that_are_missing_are_said_and_the_rest_listed(tmp_path):
    write_part(tmp_path / "ok", "p", ["a", "b"], np.ones((2, 4), np.float32))
    (tmp_path / "running" / "_partial" / "a").mkdir(parents=True)  # a Ray run with no file finished yet
    found, problems = listed_datasets([tmp_path / "ok", tmp_path / "gone", tmp_path / "running"])
    assert [(info.name, info.rows, info.manifest) for info in found] == [("ok", 2, None)]
    assert found[0].label == "ok (2 texts, vectors made elsewhere)"
    assert len(problems) == 2 and "gone does not exist" in problems[0] and "holds no vectors yet" in problems[1]


@pytest.mark.parametrize("bad, said", [
    (["zz-corrupt.parquet"], "holds zz-corrupt.parquet, which is not a Parquet file; remove it or embed its input"),
    (["aa-corrupt.parquet"], "holds aa-corrupt.parquet, which is not a Parquet file; remove it or embed its input"),
    (["a.parquet", "sub/b.parquet"], "holds a.parquet, sub/b.parquet, which are not Parquet files; remove them or "
                                     "embed their inputs"),
])
def test_files_that_are_not_parquet_take_their_folder_out_in_one_sentence_naming_them(tmp_path, bad, said):
    write_part(tmp_path / "ok", "p", ["a", "b"], np.ones((2, 4), np.float32))
    broken = tmp_path / "broken"
    write_part(broken, "part-0", ["a"], np.ones((1, 4), np.float32))
    for name, data in zip(bad, [b"garbage", b"not Parquet, and longer than its 8-byte footer"]):
        (broken / name).parent.mkdir(exist_ok=True)
        (broken / name).write_bytes(data)
    found, problems = listed_datasets([tmp_path / "ok", broken])
    assert [info.name for info in found] == ["ok"]
    assert problems == [f"The listed dataset folder {broken} {said} again and the folder is listed again."]


def test_a_sample_takes_seeded_rows_with_their_texts_metadata_and_vectors(tmp_path):
    vectors = np.arange(40, dtype=np.float32).reshape(10, 4)
    write_part(tmp_path / "d", "p", [f"t{i}" for i in range(10)], vectors, genre=[f"g{i}" for i in range(10)])
    dataset = open_dataset(tmp_path / "d", [tmp_path / "d"])
    rows, frame, sampled = dataset_sample(dataset, 4, seed=3)
    assert rows.tolist() == sorted(np.random.default_rng(3).permutation(10)[:4].tolist())
    assert frame["text"].tolist() == [f"t{i}" for i in rows] and frame["genre"].tolist() == [f"g{i}" for i in rows]
    np.testing.assert_array_equal(sampled, vectors[rows])
    rows, frame, whole = dataset_sample(dataset, 50)
    assert rows.tolist() == list(range(10)) and frame["text"].tolist() == [f"t{i}" for i in range(10)]
    assert whole is dataset.vectors  # every row: the memory-mapped vectors themselves, never a copy


def test_a_folders_version_changes_when_a_file_is_added_or_replaced_and_not_otherwise(tmp_path):
    folder = tmp_path / "grows"
    assert folder_version(folder) == ""
    write_part(folder, "p0", ["a"], np.ones((1, 4), np.float32))
    first = folder_version(folder)
    write_manifest(*filesystem(str(folder)), Manifest(Settings()))
    (folder / "_partial").mkdir()  # a file being written is not part of the folder yet
    assert folder_version(folder) == first
    write_part(folder, "p1", ["b"], np.ones((1, 4), np.float32))
    second = folder_version(folder)
    write_part(folder, "p1", ["b", "c"], np.ones((2, 4), np.float32))
    assert len({first, second, folder_version(folder)}) == 3


def test_a_folder_of_sparse_vectors_is_said_and_an_older_manifest_reads_as_documents(tmp_path):
    import json

    import scipy.sparse as sp

    from core.data.sparse_vectors import sparse_parquet

    folder = tmp_path / "sparse"
    folder.mkdir()
    (folder / "p.parquet").write_bytes(sparse_parquet(["a", "b"], sp.csr_matrix(np.eye(2, 5, dtype=np.float32))))
    found, problems = listed_datasets([folder])
    assert not found and "holds a sparse model's vectors (indices and values)" in problems[0]
    older = {"format": 1, "settings": {"model_id": "m", "pooling": "default", "layer": None, "normalize": False,
                                       "max_length": None, "truncate_dim": None, "prompt": ""}}
    assert Manifest.from_json(json.dumps(older)).settings.role == "document"
