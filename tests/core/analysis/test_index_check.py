"""Does a stored index still match its model: the stored vectors are written by sentence-transformers itself (the
model's own `encode`, its modules rebuilt without Normalize or with another Pooling, `truncate_dim`, another model),
never by this project's encoder, over the messy labelled texts (repeats, one dominating text) — and each way of
writing them is told apart."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Pooling

from core.analysis.index_check import (
    AGREES,
    CUT,
    LENGTHS,
    OTHER,
    first_looks,
    judged,
    sampled_rows,
)
from core.evaluation.index_check import check_index
from core.models.loading import load_model
from core.settings import Settings
from tests.messy import messy

SAMPLE = 120


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return pd.read_csv(messy("labelled.csv"))["text"].fillna("").astype(str).tolist()


@pytest.fixture(scope="module")
def writer(minilm) -> SentenceTransformer:
    return SentenceTransformer(str(minilm.folder), device="cpu")


def test_the_sample_is_one_row_per_distinct_non_blank_text_seeded_and_the_rest_is_counted(texts):
    rows, skipped = sampled_rows([*texts, "", "  "], limit=SAMPLE)
    distinct = {text for text in texts if text.strip()}
    assert len(rows) == SAMPLE and len({texts[row] for row in rows}) == SAMPLE  # no text twice
    assert all(texts.index(texts[row]) == row for row in rows)  # each the first row of its text
    assert skipped == len(texts) + 2 - len(distinct)
    np.testing.assert_array_equal(rows, sampled_rows(texts, limit=SAMPLE)[0])  # seeded: the same rows each run
    assert set(sampled_rows(texts, limit=SAMPLE // 2)[0]) <= set(rows)  # a smaller sample within a larger one


def test_each_row_is_told_as_agreeing_another_length_cut_or_other():
    rng = np.random.default_rng(0)
    fresh = rng.normal(size=(8, 6)).astype(np.float32)
    stored = fresh.copy()
    stored[1] *= 2  # the same direction, twice as long
    stored[2] = rng.normal(size=6)
    stored[3] += 5e-4  # within the tolerance
    looks, cosines = first_looks(stored, fresh)
    assert looks.tolist() == [AGREES, LENGTHS, OTHER, AGREES, *[AGREES] * 4]
    np.testing.assert_allclose(cosines[[0, 1]], 1, atol=1e-6)
    cut = fresh[:, :4] / np.linalg.norm(fresh[:, :4], axis=1, keepdims=True)  # cut, then scaled to unit length
    assert first_looks(cut, fresh)[0].tolist() == [CUT] * 8
    wider, none = first_looks(np.hstack([fresh, fresh]), fresh)
    assert wider.tolist() == [OTHER] * 8 and none is None


def test_a_few_rows_another_way_make_a_mixed_index_whose_rows_are_listed():
    rng = np.random.default_rng(1)
    fresh = rng.normal(size=(40, 8)).astype(np.float32)
    stored = fresh.copy()
    stored[[3, 17, 30]] = rng.normal(size=(3, 8))
    looks, cosines = first_looks(stored, fresh)
    check = judged(stored, fresh, looks, cosines, np.arange(100, 140), skipped=0)
    assert check.verdict == "mixed" and check.agree_share == pytest.approx(37 / 40)
    assert sorted(row["row"] for row in check.record("m")["rows_unlike"]) == [103, 117, 130]
    everything = judged(fresh, fresh, first_looks(fresh, fresh)[0], cosines, np.arange(40), skipped=0)
    assert everything.verdict == "matches" and everything.overlap_at_10 == 1.0
    assert everything.fresh_finds_stored == everything.stored_finds_fresh == 1.0


def test_the_models_own_vectors_agree_and_its_retrieval_is_the_same(minilm, writer, texts):
    check = check_index(minilm, texts, writer.encode(texts), Settings(model_id=minilm.model_id), sample=SAMPLE)
    record = check.record(minilm.model_id)
    assert record["verdict"] == "matches" and record["agree_share"] == 1.0
    assert record["median_cosine"] == pytest.approx(1, abs=1e-6) and record["p5_cosine"] == pytest.approx(1, abs=1e-5)
    assert record["overlap_at_10"] == 1.0 and record["fresh_finds_stored"] == 1.0
    assert record["sample"] == SAMPLE and record["rows_unlike"] == []


def test_vectors_without_the_normalisation_are_told_apart(minilm, writer, texts):
    unnormalised = SentenceTransformer(modules=[writer[0], writer[1]], device="cpu")
    assert writer.similarity_fn_name == "cosine" and type(writer[2]).__name__ == "Normalize"
    check = check_index(minilm, texts, unnormalised.encode(texts), Settings(model_id=minilm.model_id), sample=SAMPLE)
    assert check.verdict == "other_normalisation" and check.agree_share == 0
    assert "are not normalised" in check.message(minilm.model_id)
    assert check.overlap_at_10 == 1.0  # cosine neighbours do not see lengths


def test_vectors_cut_to_256_dimensions_are_told_apart(minilm, writer, texts):
    cut = writer.encode(texts, truncate_dim=256)
    check = check_index(minilm, texts, cut, Settings(model_id=minilm.model_id), sample=SAMPLE)
    assert check.verdict == "cut_dimensions" and "first 256 of 384" in check.message(minilm.model_id)
    again = check_index(minilm, texts, cut, Settings(model_id=minilm.model_id, truncate_dim=256), sample=SAMPLE)
    assert again.verdict == "matches"


def test_vectors_of_another_pooling_are_named_by_it(minilm, writer, texts):
    cls = SentenceTransformer(modules=[writer[0], Pooling(writer[1].embedding_dimension, "cls"), writer[2]],
                              device="cpu")
    check = check_index(minilm, texts, cls.encode(texts), Settings(model_id=minilm.model_id), sample=SAMPLE)
    assert check.verdict == "other_pooling" and "with the cls pooling" in check.message(minilm.model_id)


def test_vectors_of_another_model_of_the_same_width_are_told_apart_and_a_mixed_index_lists_its_rows(minilm, writer,
                                                                                                    texts):
    other = SentenceTransformer(str(load_model("paraphrase-MiniLM-L3-v2", "cpu").folder), device="cpu")
    theirs = other.encode(texts)
    assert theirs.shape[1] == minilm.dimensions
    check = check_index(minilm, texts, theirs, Settings(model_id=minilm.model_id), sample=SAMPLE)
    assert check.verdict == "other_model" and check.agree_share == 0
    assert check.overlap_at_10 < 0.9
    mixed = writer.encode(texts)
    written_later = np.arange(len(texts)) >= 300  # the rows added after the model changed
    mixed[written_later] = theirs[written_later]
    check = check_index(minilm, texts, mixed, Settings(model_id=minilm.model_id), sample=SAMPLE)
    assert check.verdict == "mixed"
    unlike = {row["row"] for row in check.record(minilm.model_id)["rows_unlike"]}
    sampled_later = {int(row) for row in check.rows if written_later[row]}
    assert unlike <= sampled_later and len(unlike) == min(20, len(sampled_later))
    assert check.agree_share == pytest.approx(1 - len(sampled_later) / SAMPLE)


def test_a_model_without_one_dense_vector_a_text_is_refused_in_one_sentence(texts, sparse_folders):
    model = load_model(str(next(iter(sparse_folders.values()))), "cpu")
    with pytest.raises(ValueError, match="stored vectors are one dense vector a text"):
        check_index(model, texts, np.zeros((len(texts), 4), np.float32), Settings(model_id=model.model_id))
