from streamlit.testing.v1 import AppTest


def _page() -> None:
    import streamlit as st

    from ui.state.persist import kept, kept_value, set_kept

    if st.session_state.get("show", True):
        options = st.session_state.get("options", ["a", "b"])
        kept(st.selectbox, "Pick", key="pick", default="a", options=options, must_be_option=True)
    if st.session_state.get("force"):
        set_kept("pick", st.session_state.pop("force"))
    st.write(f"kept: {kept_value('pick', 'never shown')}")


def _opened() -> AppTest:
    at = AppTest.from_function(_page)
    at.run()
    assert not at.exception
    return at


def test_a_choice_survives_while_its_widget_is_not_drawn():
    at = _opened()
    at.selectbox(key="pick").set_value("b").run()
    at.session_state["show"] = False
    at.run()
    assert at.markdown[0].value == "kept: b"
    at.session_state["show"] = True
    at.run()
    assert at.selectbox(key="pick").value == "b"


def test_a_kept_choice_no_longer_among_the_options_starts_again_from_the_default():
    at = _opened()
    at.selectbox(key="pick").set_value("b").run()
    at.session_state["options"] = ["c", "a"]
    at.run()
    assert not at.exception
    assert at.selectbox(key="pick").value == "a"


def test_set_kept_changes_the_widget_and_the_kept_value():
    at = _opened()
    at.session_state["show"] = False
    at.session_state["force"] = "b"
    at.run()
    at.session_state["show"] = True
    at.run()
    assert at.selectbox(key="pick").value == "b"


def test_kept_value_is_the_default_until_the_widget_was_drawn():
    at = AppTest.from_function(_page)
    at.session_state["show"] = False
    at.run()
    assert at.markdown[0].value == "kept: never shown"


def _following_page() -> None:
    import streamlit as st

    from ui.state.persist import kept

    options = st.session_state.get("options", ["a", "b"])
    kept(st.selectbox, "Pick", key="pick", default=options[0], options=options, must_be_option=True, url=True,
         follow_default=True)


def test_a_widget_following_its_default_moves_with_it_until_the_user_chooses():
    at = AppTest.from_function(_following_page)
    at.run()
    at.session_state["options"] = ["c", "a", "b"]  # a better default arrived: nobody chose "a"
    at.run()
    assert at.selectbox(key="pick").value == "c"
    at.selectbox(key="pick").set_value("b").run()
    at.session_state["options"] = ["d", "c", "a", "b"]
    at.run()
    assert not at.exception and at.selectbox(key="pick").value == "b"


def test_a_linked_value_is_not_replaced_by_the_default():
    at = AppTest.from_function(_following_page)
    at.query_params["pick"] = "b"
    at.run()
    at.session_state["options"] = ["c", "a", "b"]
    at.run()
    assert at.selectbox(key="pick").value == "b"
