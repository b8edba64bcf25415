"""The tag store: tags kept by row id in one store for every corpus of texts (a corpus grown by a row, shrunk by one,
or uploaded again in another order keeps its tags and their undo history: ../shared/data/messy/), a dataset's in a
scope of its own; changed, undone and read back from an export, in a folder of their own; written whole (a reader
never meets half a file, an error while writing leaves the old file, and the file and its folder are fsynced) and
kept across a restart (a new store on the same folder)."""

import io
import json
import os

import pandas as pd
import pytest

from core.data.labels import TEXTS as SCOPE
from core.data.labels import (
    TagError,
    TagStore,
    dataset_scope,
    labelled_table,
    tag_columns,
    tag_name,
    tags_from_table,
)
from core.data.rows import text_row_ids
from core.paths import atomic_write
from tests.messy import messy

TEXTS = ["a cat", "a dog", "a cat", "stocks fell"]
IDS = text_row_ids(TEXTS)


@pytest.fixture
def store(tmp_path):
    return TagStore(tmp_path / "tags")


def test_a_datasets_scope_is_its_name_and_version():
    assert dataset_scope("news", "v1") == dataset_scope("news", "v1") != dataset_scope("news", "v2") != SCOPE
    assert dataset_scope("news", "v1") != dataset_scope("new", "sv1")


def test_tags_are_kept_changed_and_undone_step_by_step(store, tmp_path):
    corpus = SCOPE
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
    assert store.tags(dataset_scope("news", "v1")) == {}  # a dataset has tags of its own


@pytest.mark.parametrize("change, said", [
    (lambda store, corpus: store.tag(corpus, "  ", [IDS[0]]), "A tag needs a name"),
    (lambda store, corpus: store.tag(corpus, "x" * 61, [IDS[0]]), "at most 60 characters"),
    (lambda store, corpus: store.tag(corpus, "new", []), "Nothing is selected"),
    (lambda store, corpus: store.rename(corpus, "pets", "money"), "There is a tag “money” already"),
    (lambda store, corpus: store.remove(corpus, "birds"), "There is no tag “birds”; the tags are: pets, money."),
    (lambda store, corpus: TagStore(store.folder / "empty").undo(corpus), "There is no change to undo."),
])
def test_a_change_that_cannot_be_made_is_one_sentence_and_changes_nothing(store, change, said):
    corpus = SCOPE
    store.tag(corpus, "pets", IDS[:2])
    store.tag(corpus, "money", IDS[3:])
    before = store.state(corpus)
    with pytest.raises(TagError, match=said) as refused:
        change(store, corpus)
    assert "\n" not in str(refused.value) and store.state(corpus) == before


def test_the_file_is_the_whole_state_as_json(store):
    corpus = SCOPE
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


def _corpus(name: str) -> tuple[pd.DataFrame, list[str]]:
    table = pd.read_csv(messy(name), dtype=str, keep_default_na=False)
    return table, text_row_ids(table["text"])


@pytest.mark.parametrize("change", ["grown by one row", "shrunk by one row", "in another order"])
def test_a_corpus_changed_keeps_its_tags_and_their_undo_history(store, change):
    table, ids = _corpus("labelled.csv")
    tagged = [ids[i] for i in range(0, len(ids), 7)]  # repeated texts among them: their later copies too
    store.tag(SCOPE, "checked", tagged)
    store.tag(SCOPE, "news", [row for row, genre in zip(ids, table["genre"]) if genre == "news"])
    if change == "grown by one row":
        table, changed = _corpus("labelled_grown.csv")
        assert changed[:len(ids)] == ids and len(changed) == len(ids) + 1
    elif change == "shrunk by one row":
        table, changed = table.drop(index=3).reset_index(drop=True), text_row_ids(table.drop(index=3)["text"])
    else:
        table = table.sample(frac=1.0, random_state=4).reset_index(drop=True)
        changed = text_row_ids(table["text"])
    columns = tag_columns(changed, store.tags(SCOPE))
    # the rows tagged are the rows tagged before, wherever they are now: a text's n-th copy is still its n-th copy
    expected = [text_row_ids(table["text"])[i] in set(tagged) for i in range(len(table))]
    assert columns["tag_checked"].tolist() == expected and sum(expected) >= len(tagged) - 1
    assert store.state(SCOPE).last_change.startswith("tagged")
    assert store.undo(SCOPE).tags == {"checked": frozenset(tagged)}  # the undo history is the corpus's still


def test_a_tag_of_one_corpus_is_no_column_of_a_corpus_without_its_rows():
    tags = {"pets": frozenset(IDS[:2]), "far away": frozenset(["0123456789abcdef:0"])}
    assert list(tag_columns(IDS, tags).columns) == ["tag_pets"]


def test_an_error_while_writing_leaves_the_old_file_whole_and_a_write_is_synced(tmp_path, monkeypatch):
    target = tmp_path / "tags.json"
    target.write_text("the old tags", encoding="utf-8")

    def half(tmp):
        tmp.write_text("half of the ne", encoding="utf-8")
        raise OSError("the disk is full")

    with pytest.raises(OSError):
        atomic_write(target, half)
    assert target.read_text(encoding="utf-8") == "the old tags"
    assert [path.name for path in tmp_path.iterdir()] == ["tags.json"]  # no temporary file left
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd)))
    atomic_write(target, lambda tmp: tmp.write_text("the new tags", encoding="utf-8"))
    assert target.read_text(encoding="utf-8") == "the new tags"
    assert len(synced) == 2 and synced[0].startswith(str(tmp_path / ".tags.json.")) and synced[1] == str(tmp_path)
