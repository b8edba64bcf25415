"""The tag store: tags kept by row id for a corpus known by its rows in any order, changed, undone and read back from
an export, in a folder of their own; written whole (a reader never meets half a file) and kept across a restart (a new
store on the same folder)."""

import io
import json

import pandas as pd
import pytest

from core.data.labels import TagError, TagStore, corpus_key, labelled_table, tag_columns, tag_name, tags_from_table
from core.data.rows import text_row_ids

TEXTS = ["a cat", "a dog", "a cat", "stocks fell"]
IDS = text_row_ids(TEXTS)


@pytest.fixture
def store(tmp_path):
    return TagStore(tmp_path / "tags")


def test_a_corpus_is_its_rows_in_any_order():
    assert corpus_key(IDS) == corpus_key(IDS[::-1]) != corpus_key(IDS[:3])


def test_tags_are_kept_changed_and_undone_step_by_step(store, tmp_path):
    corpus = corpus_key(IDS)
    store.tag(corpus, " pets ", [IDS[0], IDS[1]])
    store.tag(corpus, "pets", [IDS[2]])
    store.tag(corpus, "money", [IDS[3]])
    assert store.tags(corpus) == {"pets": frozenset(IDS[:3]), "money": frozenset([IDS[3]])}
    store.rename(corpus, "money", "markets")
    store.untag(corpus, "pets", [IDS[1]])
    state = store.remove(corpus, "markets")
    assert state.tags == {"pets": frozenset([IDS[0], IDS[2]])} and state.last_change == "removed “markets”"
    again = TagStore(tmp_path / "tags")  # a restart: a new store on the same folder
    assert again.undo(corpus).tags == {"pets": frozenset([IDS[0], IDS[2]]), "markets": frozenset([IDS[3]])}
    assert again.undo(corpus).tags == {"pets": frozenset(IDS[:3]), "markets": frozenset([IDS[3]])}
    assert again.undo(corpus).tags == {"pets": frozenset(IDS[:3]), "money": frozenset([IDS[3]])}
    assert store.tags(corpus_key(IDS[:2])) == {}  # another corpus has tags of its own


@pytest.mark.parametrize("change, said", [
    (lambda store, corpus: store.tag(corpus, "  ", [IDS[0]]), "A tag needs a name"),
    (lambda store, corpus: store.tag(corpus, "x" * 61, [IDS[0]]), "at most 60 characters"),
    (lambda store, corpus: store.tag(corpus, "new", []), "Nothing is selected"),
    (lambda store, corpus: store.rename(corpus, "pets", "money"), "There is a tag “money” already"),
    (lambda store, corpus: store.remove(corpus, "birds"), "There is no tag “birds”; the tags are: pets, money."),
    (lambda store, corpus: TagStore(store.folder / "empty").undo(corpus), "There is no change to undo."),
])
def test_a_change_that_cannot_be_made_is_one_sentence_and_changes_nothing(store, change, said):
    corpus = corpus_key(IDS)
    store.tag(corpus, "pets", IDS[:2])
    store.tag(corpus, "money", IDS[3:])
    before = store.state(corpus)
    with pytest.raises(TagError, match=said) as refused:
        change(store, corpus)
    assert "\n" not in str(refused.value) and store.state(corpus) == before


def test_the_file_is_the_whole_state_as_json(store):
    corpus = corpus_key(IDS)
    store.tag(corpus, "pets", IDS[:2])
    written = json.loads((store.folder / f"{corpus}.json").read_text(encoding="utf-8"))
    assert written["tags"] == {"pets": sorted(IDS[:2])}
    assert written["history"] == [{"change": "tagged 2 row(s) “pets”", "tags": {}}]
    assert [path.name for path in store.folder.iterdir() if not path.name.startswith(".")] == [f"{corpus}.json"]


def test_an_export_has_a_true_false_column_per_tag_and_reads_back_to_the_same_tags():
    frame = pd.DataFrame({"row_id": IDS, "text": TEXTS, "label": ["x", "y", "z", "w"]})
    tags = {"pets": frozenset(IDS[:2]), "a cat": frozenset([IDS[2]])}
    assert tag_columns(IDS, tags).to_dict("list") == {"tag_pets": [True, True, False, False],
                                                      "tag_a cat": [False, False, True, False]}
    table = labelled_table(frame, tags, coords=pd.DataFrame({"x": [0, 1, 2, 3], "y": [4, 5, 6, 7]}).to_numpy())
    assert list(table.columns) == ["row_id", "text", "label", "tag_pets", "tag_a cat", "x", "y"]
    written = pd.read_csv(io.StringIO(table.to_csv(index=False)), dtype=str)
    assert tags_from_table(written) == tags
    with pytest.raises(TagError, match="no row_id column"):
        tags_from_table(written.drop(columns=["row_id"]))


def test_a_tag_column_edited_in_a_spreadsheet_reads_true_1_and_yes_as_tagged():
    table = pd.DataFrame({"row_id": IDS, "tag_pets": ["TRUE", "1", "yes", "no"], "tag_none": ["0", "false", "", "No"]})
    assert tags_from_table(table) == {"pets": frozenset(IDS[:3]), "none": frozenset()}


def test_a_name_of_60_characters_is_kept_and_one_of_61_refused():
    assert tag_name("n" * 60) == "n" * 60
    with pytest.raises(TagError, match="at most 60 characters, not 61"):
        tag_name("n" * 61)
