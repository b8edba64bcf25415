from core.analysis.tokenization import special_tokens, tokenize_text, unknown_spans


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
