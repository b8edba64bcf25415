"""A late-interaction model's dataset folder (Parquet files of text, tokens and token_vectors, as `core embed` writes
them) opens for Retrieval with every token vector memory-mapped from one cache file, equal to the files; the map's
opener says where such a folder opens instead; token vectors of two widths are refused in a sentence."""

import numpy as np
import pytest

from core.data.datasets import (
    DatasetError,
    Manifest,
    listed_datasets,
    open_dataset,
    open_late_dataset,
    write_manifest,
)
from core.data.late_parquet import late_parquet
from core.encoding.late.tokens import TokenVectors, encode_multivector
from core.models.loading import load_model
from core.scale.inputs import filesystem
from core.settings import Settings
from tests.multivector import TEXTS


def texts_of(rng, lengths, width) -> list[TokenVectors]:
    return [TokenVectors(tuple(f"t{i}é" for i in range(n)), rng.normal(size=(n, width)).astype(np.float32),
                         np.zeros(n, bool), np.zeros(n, bool), (), False) for n in lengths]


def test_a_folder_of_token_vector_files_opens_with_every_token_and_vector(tmp_path):
    rng = np.random.default_rng(0)
    first, second = texts_of(rng, [3, 0, 5], 8), texts_of(rng, [2, 7], 8)
    folder = tmp_path / "late"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    late_parquet(str(folder / "a" / "part.parquet"), ["a1", "a2", "a3"], first, 8)
    late_parquet(str(folder / "b" / "part.parquet"), ["b1", "b2"], second, 8)
    write_manifest(*filesystem(str(folder)), Manifest(Settings(model_id="some/colbert", role="document")))
    found, problems = listed_datasets([folder])
    assert not problems and found[0].late and found[0].label == "late (5 texts, some/colbert, late interaction)"
    dataset = open_late_dataset(folder, [folder])
    assert isinstance(dataset.corpus.vectors, np.memmap) and not dataset.corpus.vectors.flags.writeable
    for row, text in enumerate([*first, *second]):
        np.testing.assert_array_equal(dataset.corpus.text(row).vectors, text.vectors)
        assert dataset.corpus.tokens(row) == text.tokens
    assert dataset.texts([4, 0]) == ["b2", "a1"] and "token_vectors" not in dataset.table.column_names
    again = open_late_dataset(folder, [folder])  # from the cache file
    np.testing.assert_array_equal(again.corpus.vectors, dataset.corpus.vectors)
    with pytest.raises(DatasetError, match="late-interaction model's token vectors .* open it on Retrieval"):
        open_dataset(folder, [folder])


def test_token_vectors_of_two_widths_are_refused(tmp_path):
    rng = np.random.default_rng(1)
    (tmp_path / "d").mkdir()
    late_parquet(str(tmp_path / "d" / "a.parquet"), ["a"], texts_of(rng, [2], 8), 8)
    late_parquet(str(tmp_path / "d" / "b.parquet"), ["b"], texts_of(rng, [3], 6), 6)
    with pytest.raises(DatasetError, match=r"different widths \((8 and 6|6 and 8)\)"):
        open_late_dataset(tmp_path / "d", [tmp_path / "d"])


def test_a_file_written_by_a_model_reads_back_as_its_encode_document(late_folders, tmp_path):
    model = load_model(str(late_folders["colbert"]), "cpu")
    found = encode_multivector(model, TEXTS, role="document")
    late_parquet(str(tmp_path / "c.parquet"), TEXTS, found, model.late_pipeline.width)
    dataset = open_late_dataset(tmp_path, [tmp_path])
    for row, text in enumerate(found):
        np.testing.assert_array_equal(dataset.corpus.text(row).vectors, text.vectors)
        assert dataset.corpus.tokens(row) == text.tokens
