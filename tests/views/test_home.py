from tests.conftest import app_test


def test_home_opens_on_the_default_model_with_its_facts():
    at = app_test()
    assert not at.exception
    assert at.sidebar.selectbox(key="sb_model").value == "all-MiniLM-L6-v2"
    table = at.table[0].value
    assert table.loc["layers", "value"] == "6"
    assert table.loc["hidden size", "value"] == "384"
    assert table.loc["FFN size", "value"] == "1,536"
    assert table.loc["attention heads", "value"] == "12"
    assert table.loc["vocabulary size", "value"] == "30,522"


def test_url_settings_seed_the_sidebar_and_changes_go_back_to_the_url():
    at = app_test(model="paraphrase-MiniLM-L3-v2", pooling="cls", layer="1")
    assert not at.exception
    assert at.sidebar.selectbox(key="sb_model").value == "paraphrase-MiniLM-L3-v2"
    assert at.sidebar.slider(key="sb_layer").value == 1
    assert at.sidebar.selectbox(key="sb_pooling").value == "cls"
    at.sidebar.selectbox(key="sb_pooling").set_value("max").run()
    assert at.query_params["pooling"] == ["max"] or at.query_params["pooling"] == "max"


def test_an_unavailable_model_leaves_the_previous_one_in_use_and_the_sidebar_shows_it():
    at = app_test()
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    at.sidebar.selectbox(key="sb_model").set_value("bert-base-uncased").run()
    assert not at.exception
    assert [e.value for e in at.sidebar.error] == [
        "Could not load bert-base-uncased: 'google-bert/bert-base-uncased' is not in the local Hugging Face cache, and "
        "HF_HUB_OFFLINE=1 turns downloads off; on a machine with network, start without HF_HUB_OFFLINE, or choose a "
        "model that is already here. Still showing paraphrase-MiniLM-L3-v2."]
    assert at.sidebar.selectbox(key="sb_model").value == "paraphrase-MiniLM-L3-v2"  # the model in use
    assert at.table[0].value.loc["model", "value"] == "paraphrase-MiniLM-L3-v2"
    at.run()
    assert not at.sidebar.error  # said once, not on every rerun


def test_switching_to_a_deeper_or_shallower_model_keeps_the_last_layer_selected():
    at = app_test()
    assert at.sidebar.slider(key="sb_layer").value == 6
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert at.sidebar.slider(key="sb_layer").value == 3
    assert at.table[0].value.loc["layers", "value"] == "3"
