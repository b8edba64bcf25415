"""What a map refuses, at the edges of what it takes: one text or a column of them, the most points it draws, the
fewest it projects, and bad coordinates listed by row."""

import re

import numpy as np
import pandas as pd
import pytest

from core.analysis.map.projection import MAX_POINTS
from core.maps.checks import check_coords, check_projectable, map_texts


def test_one_text_is_one_point_and_a_column_its_texts():
    assert map_texts("a cat") == ["a cat"]
    assert map_texts(pd.Series(["a", "b"], dtype="string[pyarrow]")) == ["a", "b"]
    with pytest.raises(TypeError, match="Give texts as strings, one per point."):
        map_texts(["a", 3])


def test_a_map_draws_its_most_points_and_refuses_one_more():
    assert len(map_texts(["a"] * MAX_POINTS)) == MAX_POINTS
    with pytest.raises(ValueError, match=f"at most {MAX_POINTS:,} points, not {MAX_POINTS + 1:,}; take a sample"):
        map_texts(["a"] * (MAX_POINTS + 1))


def test_two_texts_are_projected_and_one_is_refused():
    check_projectable(np.eye(2))
    with pytest.raises(ValueError, match="at least 2 texts, not 1"):
        check_projectable(np.eye(2)[:1])


@pytest.mark.parametrize("bad, shown", [(5, "rows 0, 1, 2, 3, 4)"), (6, "rows 0, 1, 2, 3, 4, …)")])
def test_bad_coordinates_are_listed_by_row_five_at_most(bad, shown):
    coords = np.zeros((10, 2))
    coords[:bad, 0] = np.nan
    with pytest.raises(ValueError, match=re.escape(f"{bad} point(s) have NaN or infinite coordinates ({shown}")):
        check_coords(coords)
