import pytest

from core.models.anatomy import count_parameters, facts_frame, parameter_breakdown, sentence_transformers_modules


def test_parameter_breakdown_adds_up_to_the_network(minilm):
    table = parameter_breakdown(minilm)
    rows = dict(zip(table["module"], table["parameters"]))
    assert table["share"].sum() == pytest.approx(1.0) and round(table["share"].iloc[0], 3) == 0.525
    assert list(rows) == ["embeddings", *(f"layer {i}" for i in range(1, 7)), "pooler"]
    assert sum(rows.values()) == count_parameters(minilm.network) == 22_713_216
    # word (30522) + position (512) + type (2) embeddings of 384 dims, plus a LayerNorm
    assert rows["embeddings"] == (30522 + 512 + 2) * 384 + 2 * 384
    # Q, K, V, output (4 x 384^2 + 4 x 384), FFN (2 x 384 x 1536 + 1536 + 384), two LayerNorms
    assert rows["layer 1"] == 4 * (384 * 384 + 384) + 384 * 1536 + 1536 + 1536 * 384 + 384 + 2 * 2 * 384


def test_sentence_transformers_modules_of_the_packaged_model(minilm, tiny_bert):
    modules = sentence_transformers_modules(minilm)
    assert [m["module"] for m in modules] == ["Transformer", "Pooling", "Normalize"]
    assert modules[1]["detail"] == "pooling: mean"
    assert sentence_transformers_modules(tiny_bert) == []


def test_facts_frame_formats_integers_but_not_booleans():
    frame = facts_frame({"parameters": 22713216, "trained": True, "pooling": "mean"})
    assert frame["value"].tolist() == ["22,713,216", "True", "mean"]
    assert frame.index.name == "fact"
