from tests.conftest import app_test

PAGE = "views/model.py"


def _frames(at) -> dict[str, object]:
    return {tuple(frame.value.columns)[0]: frame.value for frame in at.dataframe}


def test_opens_with_facts_parameters_modules_and_the_sample_tokenized():
    at = app_test(PAGE)
    assert not at.exception and not at.error
    facts = at.table[0].value
    assert facts.loc["layers", "value"] == "6" and facts.loc["parameters", "value"] == "22,713,216"
    frames = _frames(at)
    parameters = frames["module"]
    assert parameters["module"].tolist() == ["embeddings", *(f"layer {i}" for i in range(1, 7)), "pooler"]
    assert parameters["parameters"].sum() == 22_713_216
    assert frames["index"]["module"].tolist() == ["Transformer", "Pooling", "Normalize"]
    tokens = frames["token"]
    assert tokens["token"].tolist()[:4] == ["[CLS]", "token", "##izer", "##s"]
    assert frames["role"].set_index("role").loc["cls_token", "id"] == 101
    assert "🤖" in at.code[-1].value
    assert {m.label: m.value for m in at.metric}["Vocabulary size"] == "30,522"


def test_typed_text_survives_a_model_switch_and_is_cut_at_the_sidebar_length():
    at = app_test(PAGE)
    at.text_area(key="model_text").set_value("word " * 40).run()
    at.sidebar.number_input(key="sb_maxlen").set_value(16).run()
    assert not at.exception
    assert "The text has 42 tokens, more than the max length of 16" in at.warning[0].value
    assert len(_frames(at)["token"]) == 16
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Tokens in the text"], metrics["Tokens the model sees"]) == ("42", "16")  # "word" x 40 + 2
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert not at.exception
    assert at.text_area(key="model_text").value == "word " * 40
    assert at.table[0].value.loc["layers", "value"] == "3"
    modules = _frames(at)["module"]["module"].tolist()
    assert modules == ["embeddings", "layer 1", "layer 2", "layer 3"]  # no pooler in its checkpoint


def test_untrained_model_and_bad_text():
    at = app_test(PAGE)
    at.sidebar.selectbox(key="sb_model").set_value("untrained-bert").run()
    assert not at.exception
    assert "random weights" in at.warning[0].value
    assert "no modules.json" in " ".join(c.value for c in at.caption)
    at.text_area(key="model_text").set_value("   ").run()
    assert "Type a text above" in at.info[0].value
    at.text_area(key="model_text").set_value("x" * 20_001).run()
    assert "limit (max_chars_per_text) of 20,000" in at.warning[1].value
    assert not at.exception
