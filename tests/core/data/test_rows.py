"""Row ids: a text's blake2b digest (8 bytes, hex) and its place among equal texts; a dataset's row numbers; a table's
own ids where they name every row once; where rows of given ids are; each distinct text once."""


import pandas as pd
import pytest

from core.data.rows import distinct, given_row_ids, numbered_row_ids, positions_of, text_row_ids, with_row_ids
from tests.row_ids import digest


def test_a_text_row_is_its_digest_and_its_place_among_equal_texts():
    texts = ["b", "a", "b", "b", "é"]
    assert text_row_ids(texts) == [f"{digest('b')}:0", f"{digest('a')}:0", f"{digest('b')}:1", f"{digest('b')}:2",
                                   f"{digest('é')}:0"]


def test_a_dataset_row_is_its_number():
    assert numbered_row_ids([0, 7, 12]) == ["0", "7", "12"]


@pytest.mark.parametrize("values, kept", [(["x", "y"], ["x", "y"]), ([1, 2], ["1", "2"]), (["x", "x"], None),
                                          (["x", None], None), (["x", float("nan")], None), (["x", ""], None)])
def test_a_tables_own_ids_are_kept_only_where_they_name_every_row_once(values, kept):
    assert given_row_ids(values) == kept


def test_row_ids_come_first_the_tables_own_else_the_numbers_given_else_the_texts():
    frame = pd.DataFrame({"text": ["a", "b"], "label": ["x", "y"]})
    assert with_row_ids(frame).columns.tolist() == ["row_id", "text", "label"]
    assert with_row_ids(frame)["row_id"].tolist() == text_row_ids(["a", "b"])
    assert with_row_ids(frame, numbers=[4, 9])["row_id"].tolist() == ["4", "9"]
    own = frame.assign(row_id=["r1", "r2"])
    assert with_row_ids(own, numbers=[4, 9])["row_id"].tolist() == ["r1", "r2"]
    assert with_row_ids(own)[["text", "label"]].equals(frame)


def test_wanted_rows_are_found_in_the_order_of_the_rows():
    assert positions_of(["r1", "r2", "r3", "r4"], ["r4", "r2", "r9"]) == [1, 3]


def test_each_distinct_text_once_and_each_row_its_place():
    found = distinct(["b", "a", "b", "c", "a"])
    assert found.texts == ["b", "a", "c"] and found.rows.tolist() == [0, 1, 0, 2, 1]
