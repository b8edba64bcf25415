import pytest

from core.analysis.tokenization import special_tokens, tokenize_text, unknown_spans
from core.models.anatomy import count_parameters, facts_frame, parameter_breakdown, sentence_transformers_modules


def test_token_table_has_ids_masks_offsets_and_source_spans(minilm):
    tok = tokenize_text(minilm.tokenizer, "Naïve café 🤖 ok", 256)
    table = tok.table
    assert table["token"].tolist() == ["[CLS]", "naive", "cafe", "[UNK]", "ok", "[SEP]"]
    assert table["id"].tolist() == [101, 15743, 7668, 100, 7929, 102]
    assert table["attention mask"].tolist() == [1] * 6
    assert table["token type id"].tolist() == [0] * 6
    assert table.loc[1, ["start", "end", "source text"]].tolist() == [0, 5, "Naïve"]
    assert table["special"].tolist() == [True, False, False, False, False, True]
    assert tok.decoded == "[CLS] naive cafe [UNK] ok [SEP]"
    assert tok.normalized == "naive cafe 🤖 ok"
    assert not tok.truncated
    assert unknown_spans(tok, minilm.tokenizer.unk_token) == ["🤖"]


def test_word_pieces_and_truncation(minilm):
    tok = tokenize_text(minilm.tokenizer, "tokenization " * 50, 10)
    assert tok.truncated
    assert len(tok.table) == 10
    assert tok.table["token"].tolist()[:4] == ["[CLS]", "token", "##ization", "token"]
    assert tok.table["token"].iloc[-1] == "[SEP]"


def test_special_tokens_have_roles_and_ids(minilm):
    table = special_tokens(minilm.tokenizer).set_index("role")
    assert table.loc["cls_token", "token"] == "[CLS]" and table.loc["cls_token", "id"] == 101
    assert table.loc["unk_token", "id"] == 100
    assert "separates" in table.loc["sep_token", "what it is for"]


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
    assert modules[1]["detail"] == "pooling: mean_tokens"
    assert sentence_transformers_modules(tiny_bert) == []


def test_facts_frame_formats_integers_but_not_booleans():
    frame = facts_frame({"parameters": 22713216, "trained": True, "pooling": "mean"})
    assert frame["value"].tolist() == ["22,713,216", "True", "mean"]
    assert frame.index.name == "fact"
