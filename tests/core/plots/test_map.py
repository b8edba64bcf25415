import numpy as np

from core.analysis.map.projection import MAX_POINTS
from core.plots.labels import hover_text
from core.plots.map import (
    HOVER_MAX,
    HOVER_MIN,
    HOVER_WIDTH,
    MAX_CATEGORIES,
    QueryMark,
    categories,
    compare_figure,
    fits_legend,
    hover_limit,
    map_figure,
    numbers,
    overlap_counts,
    trust_figure,
)

COORDS = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
TEXTS = ["a cat", "a dog", "<b>bold</b> & co", "a car"]


def test_categories_get_one_webgl_trace_each_with_point_numbers_and_escaped_text():
    fig = map_figure(COORDS, TEXTS, categories(["x", "y", "x", "y"], title="genre"))
    assert [t.name for t in fig.data] == ["x", "y"]
    assert all(t.type == "scattergl" for t in fig.data)
    assert list(fig.data[0].customdata) == [0, 2] and list(fig.data[1].customdata) == [1, 3]
    assert fig.data[0].text[1] == "&lt;b&gt;bold&lt;/b&gt; &amp; co"
    assert fig.layout.legend.title.text == "genre"


def test_cluster_numbers_sort_numerically_in_the_legend():
    fig = map_figure(np.zeros((3, 2)) + np.arange(3)[:, None], ["p", "q", "r"],
                     categories([10, 2, 1], title="cluster"))
    assert [t.name for t in fig.data] == ["1", "2", "10"]


def test_numbers_colour_one_trace_on_a_scale():
    fig = map_figure(COORDS, TEXTS, numbers([5, 5, 16, 5], title="characters"))
    assert len(fig.data) == 1
    assert list(fig.data[0].marker.color) == [5, 5, 16, 5]
    assert fig.data[0].marker.showscale


def test_the_query_is_drawn_with_a_line_to_each_neighbour():
    fig = map_figure(COORDS, TEXTS, categories("xxxx", title="genre"),
                     query=QueryMark("a kitten", (0.5, 0.5), [0, 3]))
    lines, rings, star = fig.data[1:]
    assert list(lines.x[:2]) == [0.5, 0.0] and list(lines.x[3:5]) == [0.5, 1.0]
    assert list(lines.y[:2]) == [0.5, 0.0] and list(lines.y[3:5]) == [0.5, 1.0]
    assert np.isnan(lines.x[2])
    assert list(rings.customdata) == [0, 3]
    assert (star.x[0], star.y[0]) == (0.5, 0.5) and star.text[0] == "a kitten"


def test_hover_text_is_cut_and_wrapped_and_the_payload_stays_small_at_100000_points():
    long = "word " * 2_000
    shown = hover_text(long, limit=200, width=HOVER_WIDTH)
    assert shown.endswith("(+9,800 characters)") and shown.count("<br>") >= 2
    assert hover_limit(10) == HOVER_MAX and hover_limit(20_000) == 300 and hover_limit(MAX_POINTS) == HOVER_MIN
    rng = np.random.default_rng(0)
    fig = map_figure(rng.normal(size=(MAX_POINTS, 2)), [long] * MAX_POINTS,
                     categories(rng.integers(0, 8, MAX_POINTS), title="cluster"))
    payload = fig.to_json()
    assert '"bdata"' in payload  # coordinates travel as base64 typed arrays, not as decimal text
    assert len(payload) < 20 * 2**20  # Streamlit's limit is 200 MB


def test_a_label_column_with_thousands_of_values_does_not_fit_the_legend():
    assert fits_legend([str(i % MAX_CATEGORIES) for i in range(1_000)])
    assert not fits_legend([str(i) for i in range(3_000)])


def test_compare_draws_the_same_point_numbers_in_both_maps_and_rings_the_selection():
    fig = compare_figure(COORDS, COORDS[::-1], TEXTS, categories("xyxy", title="genre"), titles=("A", "B"),
                         highlight=[2])
    left = [t for t in fig.data if t.xaxis == "x"]
    right = [t for t in fig.data if t.xaxis == "x2"]
    assert [list(t.customdata) for t in left] == [list(t.customdata) for t in right] == [[0, 2], [1, 3], [2]]
    assert list(right[0].y) == [1.0, 0.0]  # points 0 and 2 sit at COORDS[3] and COORDS[1] on the right
    assert sum(t.showlegend is not False for t in fig.data) == 3


def test_trust_histogram_counts_points_per_kept_share():
    overlap = np.array([1.0, 0.5, 0.5, 0.0, 1.0, 1.0])
    assert overlap_counts(overlap, k=2) == {"0/2": 1, "1/2": 2, "2/2": 3}
    fig = trust_figure(overlap, k=2)
    assert list(fig.data[0].y) == [1, 2, 3]
    assert fig.layout.title.text == "Neighbours kept: mean 67%"


def test_highlight_greys_the_other_points_and_selected_points_are_ringed_with_labels():
    colouring = categories("xyxy", title="genre")
    fig = map_figure(COORDS, TEXTS, colouring, highlight=np.array([True, False, True, False]), selected=[1],
                     labels=[(0.5, 0.5, "cat, dog")])
    by_name = {trace.name: trace for trace in fig.data}
    assert list(by_name["the rest"].customdata) == [1, 3]
    assert list(by_name["x"].customdata) == [0, 2] and "y" in by_name and len(by_name["y"].x) == 0
    assert list(by_name["selected"].customdata) == [1]
    assert fig.layout.annotations[0].text == "cat, dog"


def test_points_without_a_number_are_drawn_grey_as_not_measured_and_left_out_of_the_histogram():
    overlap = np.array([0.5, np.nan, 1.0, np.nan])
    fig = map_figure(COORDS, TEXTS, numbers(overlap, title="overlap"))
    grey, scale = fig.data
    assert grey.name == "not measured" and list(grey.customdata) == [1, 3]
    assert list(scale.customdata) == [0, 2] and list(scale.marker.color) == [0.5, 1.0]
    assert sum(overlap_counts(overlap, k=2).values()) == 2
    assert trust_figure(overlap, k=2).layout.title.text == "Neighbours kept: mean 75%"
