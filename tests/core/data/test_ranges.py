"""A column's values in their own order: numbers as numbers, dates as dates (not as their strings), else text; the
rows in a range, both ends included, from either end; blanks in no range and counted."""

import datetime

import numpy as np

from core.data.ranges import ordered


def test_dates_are_compared_as_dates_not_as_their_strings():
    days = [datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(0, 300, 7)]
    values = [f"{day.year}-{day.month}-{day.day}" for day in days] + ["", None]  # 2024-10-1 sorts before 2024-2-1
    found = ordered(values)
    assert found.reading == "dates" and found.blank == 2
    assert found.distinct == values[:-2]  # already in date order
    low, high = values[5], values[20]
    assert found.within(low, high).tolist() == list(range(5, 21)) == found.within(high, low).tolist()


def test_numbers_are_compared_as_numbers():
    found = ordered(["10", "9", "100", " 9 ", "", "2.5"])
    assert found.reading == "numbers" and found.distinct == ["2.5", "9", "10", "100"]
    assert found.within("9", "10").tolist() == [0, 1, 3]


def test_anything_else_is_text_and_a_repeated_value_is_one_choice():
    genres = ["news", "forums", "", "captions", "news", "forums"]
    found = ordered(genres)
    assert found.reading == "text" and found.distinct == ["captions", "forums", "news"]
    expected = np.flatnonzero([g != "" and "captions" <= g <= "forums" for g in genres])
    assert found.within("captions", "forums").tolist() == expected.tolist()
