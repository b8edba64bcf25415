"""Tags on the Map page (AppTest): the selection named, the map coloured by the tag, the tag a column of every table,
renamed, undone and removed, and kept by row id with their undo history when the corpus comes back in another order,
grown by a row or shrunk by one."""

import pytest

from tests.canvases import canvas
from tests.conftest import app_test
from tests.row_ids import digest_id
from tests.views.map_upload import upload_topics

PAGE = "views/map.py"
ROWS = [(f"Sentence {i} is about {('music', 'food', 'weather')[i % 3]}.", ("music", "food", "weather")[i % 3])
        for i in range(15)]


def tagged_texts(at, name: str) -> set[str]:
    table = next(frame.value for frame in at.dataframe if "nearest text" in frame.value.columns)
    return set(table.loc[table[f"tag_{name}"], "text"])


def test_a_selection_is_tagged_coloured_by_and_kept_when_the_corpus_comes_back_in_another_order():
    at = upload_topics(app_test(PAGE), ROWS, "tagged.csv")
    chosen = [ROWS[1][0], ROWS[4][0], ROWS[9][0]]
    at.session_state["map_selected"] = [digest_id(text) for text in chosen]
    at.run()
    at.text_input(key="map_tag_name").input("picked")
    at.button(key="map_tag_button").click().run()
    assert not at.exception and any("tagged 3 row(s) “picked”" in s.value for s in at.success)
    assert tagged_texts(at, "picked") == set(chosen)
    at.selectbox(key="map_colour").set_value("tag: picked").run()
    assert canvas(at).legend() == {"picked": 3, "untagged": len(ROWS) - 3}
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the rows with labels and tags (CSV)" in labels

    at.session_state["map_selected"] = []
    at = upload_topics(at, ROWS[::-1], "tagged.csv")  # the same corpus, its rows in the opposite order
    at.session_state["map_selected"] = [digest_id(text) for text in chosen[:2]]
    at.run()
    assert tagged_texts(at, "picked") == set(chosen[:2])  # the rows listed are tagged, by row id
    drawn = canvas(at)
    assert drawn.legend() == {"picked": 3, "untagged": len(ROWS) - 3}


@pytest.mark.parametrize("rows", [ROWS + [("Sentence 15 is new.", "music")], ROWS[:1] + ROWS[2:]],
                         ids=["grown by a row", "shrunk by a row"])
def test_a_corpus_grown_or_shrunk_keeps_its_tags_and_their_undo(rows):
    at = upload_topics(app_test(PAGE), ROWS, "tagged.csv")
    at.session_state["map_selected"] = [digest_id(ROWS[i][0]) for i in (1, 4, 9)]
    at.run()
    at.text_input(key="map_tag_name").input("picked")
    at.button(key="map_tag_button").click().run()
    at = upload_topics(at, rows, "tagged-again.csv")
    kept = {ROWS[i][0] for i in (1, 4, 9)} & {text for text, _ in rows}
    at.selectbox(key="map_colour").set_value("tag: picked").run()
    assert canvas(at).legend() == {"picked": len(kept), "untagged": len(rows) - len(kept)}
    assert at.button(key="map_tag_undo").proto.label == "Undo: tagged 3 row(s) “picked”"
    at.button(key="map_tag_undo").click().run()
    assert not at.exception and not any("tag: picked" in str(o) for o in at.selectbox(key="map_colour").options)


def test_a_tag_is_renamed_undone_and_removed_and_a_bad_name_is_one_sentence():
    at = upload_topics(app_test(PAGE), ROWS[:9], "tagged.csv")
    at.session_state["map_selected"] = [digest_id(ROWS[0][0])]
    at.run()
    at.button(key="map_tag_button").click().run()
    assert at.error[0].value.startswith("A tag needs a name")
    at.text_input(key="map_tag_name").input("first")
    at.button(key="map_tag_button").click().run()
    at.text_input(key="map_tag_new_name").input("renamed")
    at.button(key="map_tag_rename").click().run()
    assert not at.exception and tagged_texts(at, "renamed") == {ROWS[0][0]}
    at.button(key="map_tag_undo").click().run()
    assert tagged_texts(at, "first") == {ROWS[0][0]}
    at.button(key="map_tag_remove").click().run()
    table = next(frame.value for frame in at.dataframe if "nearest text" in frame.value.columns)
    assert not any(str(column).startswith("tag_") for column in table.columns)


def test_the_map_is_coloured_by_each_texts_score_along_the_direction_between_two_genres():
    at = app_test(PAGE)
    at.number_input(key="map_size").set_value(300).run()
    at.selectbox(key="map_colour").set_value("a direction between two labels").run()
    at.selectbox(key="map_direction_first").set_value("captions").run()
    at.selectbox(key="map_direction_second").set_value("news").run()
    assert not at.exception and not at.error
    drawn = canvas(at)
    assert "scale" in drawn.view["legend"] and drawn.view["legend"]["title"] == "news → captions"
    assert any("p = 0.010 against 100 seeded random directions" in c.value for c in at.caption)
