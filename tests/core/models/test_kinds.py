"""Each model loads as the kind sentence-transformers saved it as: the kind is read once, where the folder is read."""

import json

import pytest

from core.models.catalog import SPLADE_ID, ModelUnavailable, find_entry
from core.models.loading import NotAnEmbedder, load_model, sentence_transformer
from core.models.sources import availability, folder_kind, resolve


def test_kinds_come_from_the_folders_sentence_transformers_config(sparse_folders, reranker_folder, tiny_bert_folder,
                                                                  late_folders):
    assert folder_kind(sparse_folders["splade"]) == "sparse"
    assert folder_kind(reranker_folder) == "reranker"
    assert folder_kind(tiny_bert_folder) == "dense"  # a plain checkpoint: no sentence-transformers config
    assert folder_kind(late_folders["colbert"]) == "late interaction"
    assert resolve(SPLADE_ID).kind == "sparse" and find_entry(SPLADE_ID).kind == "sparse"


def test_a_reranker_is_never_embedded_and_says_where_it_is_used(reranker_folder):
    for load in (load_model, sentence_transformer):
        with pytest.raises(NotAnEmbedder, match="reranker .*CrossEncoder.*Rerank"):
            load(str(reranker_folder))
    assert availability(str(reranker_folder)).available


def test_a_model_type_the_app_does_not_load_is_said(tmp_path, tiny_bert_folder):
    for name in ("config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json"):
        if (tiny_bert_folder / name).exists():
            (tmp_path / name).write_bytes((tiny_bert_folder / name).read_bytes())
    (tmp_path / "config_sentence_transformers.json").write_text(json.dumps({"model_type": "ImageRegressor"}))
    with pytest.raises(ModelUnavailable, match="ImageRegressor, which this app does not load"):
        load_model(str(tmp_path))


def test_a_sparse_model_is_not_trained_as_a_dense_one(sparse_folders):
    with pytest.raises(ModelUnavailable, match="sparse model; only dense"):
        sentence_transformer(str(sparse_folders["splade"]))
