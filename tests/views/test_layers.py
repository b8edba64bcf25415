import numpy as np

from tests.conftest import app_test
from tests.figures import figure

PAGE = "views/layers.py"


def chart(at, key: str) -> dict:
    """The Plotly figure of the chart with widget key `key`, as a dict."""
    return figure(at, key).to_dict()


def curves(at, key: str) -> dict[str, np.ndarray]:
    """Line name -> y values of the pair curves (S1 · S2, …) of a layer chart."""
    return {trace.name: np.asarray(trace.y, dtype=float) for trace in figure(at, key).data
            if trace.name.startswith("S")}


def shown(pill) -> str:
    return pill.formatted_values[0] if pill.value is not None else ""


def pick(pill, token: str):
    """Click the chip showing `token`; chips list the non-special tokens, so position = chip index + 1 ([CLS])."""
    return pill.set_value(pill.options.index(token) + 1)


def open_tab(at, label: str):
    """Tabs run lazily: only the open one computes its figures."""
    at.session_state["layers_tab"] = label
    at.run()
    assert not at.exception
    return at


def set_texts(at, *texts: str):
    at.text_area(key="layers_texts").set_value("\n".join(texts)).run()
    assert not at.exception
    return at


def test_opens_on_bank_in_three_senses_with_every_view():
    at = app_test(PAGE)
    assert not at.exception
    assert [p.label for p in at.pills] == ["Sentence 1", "Sentence 2", "Sentence 3"]
    assert [shown(p) for p in at.pills] == ["bank"] * 3
    token = curves(at, "layers_token_drift")
    assert list(token) == ["S1 · S2", "S1 · S3", "S2 · S3"]
    for values in token.values():
        assert len(values) == 7 and 0.9 < values[0] < 0.999 and values[3] < values[0] - 0.1
    assert len(curves(at, "layers_sentence_drift")) == 3
    assert len(at.get("plotly_chart")) == 2  # the other tabs wait until opened
    for tab, keys in [("Token alignment", ["layers_alignment"]),
                      ("Attention", ["layers_att_head_fig", "layers_att_mean_fig", "layers_att_special"]),
                      ("Layer agreement", ["layers_agreement"])]:
        open_tab(at, tab)
        for key in keys:
            assert chart(at, key)["data"]
    assert chart(at, "layers_agreement")["data"][0]["x"] == list(range(7))
    assert not at.warning and not at.error


def test_clicking_another_token_moves_the_curves_and_survives_a_page_switch():
    at = app_test(PAGE)
    before = curves(at, "layers_token_drift")["S1 · S2"]
    pick(at.pills[0], "river").run()
    assert not at.exception
    after = curves(at, "layers_token_drift")["S1 · S2"]
    assert after[0] < 0.7 < before[0]  # "river" against "bank" is no longer the same word
    at.switch_page("views/home.py").run()
    at.switch_page(PAGE).run()
    assert shown(at.pills[0]) == "river"
    np.testing.assert_allclose(curves(at, "layers_token_drift")["S1 · S2"], after, atol=1e-6)


def test_a_sentence_without_the_token_is_named_and_the_others_still_plot():
    at = set_texts(app_test(PAGE), "The bank by the river.", "A bank loan.", "Nothing to see here.")
    assert at.pills[2].value is None
    assert any("No token chosen in sentence(s) 3: “bank” is not in it" in w.value for w in at.warning)
    assert list(curves(at, "layers_token_drift")) == ["S1 · S2"]
    assert len(curves(at, "layers_sentence_drift")) == 3
    pick(at.pills[2], "nothing").run()
    assert not at.warning
    assert len(curves(at, "layers_token_drift")) == 3


def test_clearing_a_chip_says_it_was_cleared_not_that_the_word_is_missing():
    at = app_test(PAGE)
    at.pills[1].set_value(None).run()
    warnings = [w.value for w in at.warning]
    assert any("No token chosen in sentence(s) 2: its chip was cleared" in w for w in warnings), warnings
    assert not any("not in it" in w for w in warnings)


def test_the_sentence_pickers_show_the_sentences_typed_now():
    at = open_tab(app_test(PAGE), "Token alignment")
    first = next(box for box in at.main.selectbox if box.label == "Sentence A")
    assert first.options[0].startswith("S1: We had a picnic")
    set_texts(at, "Cats chase mice in the barn.", "Dogs chase cats in the yard.")
    pickers = [box for box in at.main.selectbox if box.label.startswith("Sentence")]
    assert len(pickers) == 2
    for picker in pickers:
        assert [option[:8] for option in picker.options] == ["S1: Cats", "S2: Dogs"]
    at = open_tab(at, "Attention")
    assert next(box for box in at.main.selectbox if box.label == "Sentence").options[0].startswith("S1: Cats")


def test_one_sentence_only_keeps_alignment_and_attention():
    at = set_texts(app_test(PAGE), "The bank by the river.")
    assert any("add a second sentence" in i.value for i in at.info)
    assert chart(open_tab(at, "Token alignment"), "layers_alignment")["data"]
    assert chart(open_tab(at, "Attention"), "layers_att_head_fig")["data"]
    open_tab(at, "Layer agreement").radio(key="layers_agree_source").set_value("The sentences above").run()
    assert any("at least 3 texts" in i.value for i in at.info)


def test_empty_input_asks_for_sentences_and_too_many_are_cut_to_eight():
    at = set_texts(app_test(PAGE), "")
    assert "Type at least two sentences" in at.warning[0].value
    at = set_texts(at, *[f"Sentence number {i} about a bank." for i in range(10)])
    assert "uses the first 8 of the 10 lines" in at.warning[0].value
    assert len(at.pills) == 8
    assert len(curves(at, "layers_token_drift")) == 28


def test_a_split_word_is_averaged_and_the_page_says_so():
    at = set_texts(app_test(PAGE), "Tokenization is hard.", "Tokenization is easy.")
    assert [shown(p) for p in at.pills] == ["token", "token"]
    assert "split into 2 pieces" in at.info[0].value and "their mean" in at.info[0].value


def test_three_layer_and_six_layer_models_and_switching_while_open():
    at = app_test(PAGE)
    assert len(curves(at, "layers_token_drift")["S1 · S2"]) == 7
    at.sidebar.selectbox(key="sb_model").set_value("paraphrase-MiniLM-L3-v2").run()
    assert not at.exception
    assert len(curves(at, "layers_token_drift")["S1 · S2"]) == 4
    assert len(chart(open_tab(at, "Layer agreement"), "layers_agreement")["data"][0]["x"]) == 4
    assert open_tab(at, "Attention").slider(key="layers_att_layer").max == 3
    at.sidebar.selectbox(key="sb_model").set_value("untrained-bert").run()
    assert not at.exception
    assert len(curves(at, "layers_token_drift")["S1 · S2"]) == 7
    assert at.text_area(key="layers_texts").value.startswith("We had a picnic")
