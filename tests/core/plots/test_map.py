import hashlib
from collections import Counter

import numpy as np
import pytest

from core.analysis.map.projection import NOISE
from core.plots.map import (
    MAX_CATEGORIES,
    PALETTE,
    QueryMark,
    categories,
    fits_legend,
    numbers,
    overlap_counts,
    trust_figure,
)
from core.plots.map_canvas import (
    NOT_MEASURED,
    SCALE_STEPS,
    canvas_view,
    highlight_size,
    hover_line,
    point_size,
)
from tests.canvases import DrawnCanvas


def drawn(*args, **kwargs) -> DrawnCanvas:
    """A canvas view decoded as the browser decodes it, keys checked against the payloads."""
    view = canvas_view(*args, **kwargs)
    n = view.view["n"]
    payload = {name: data[32:] for name, data in view.blobs.items()}
    for name, data in view.blobs.items():
        assert data[:32].decode() == view.view[name] == hashlib.blake2b(data[32:], digest_size=16).hexdigest()
    xy = np.frombuffer(payload["positions"], np.float32)
    highlight = None
    if "highlight" in payload:
        highlight = np.unpackbits(np.frombuffer(payload["highlight"], np.uint8), bitorder="little")[:n].astype(bool)
    return DrawnCanvas(view.view, view.blobs, np.column_stack([xy[:n], xy[n:]]),
                       np.frombuffer(payload["codes"], np.uint8), highlight)


COORDS = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 2.0], [4.0, 2.0], [2.0, 1.0]])
TEXTS = ["a cat", "a dog", "<b>bold</b> & co", "a car", "a cow"]


def test_positions_fit_the_canvas_with_their_shape_kept():
    canvas = drawn(COORDS, categories("xyxyx", title="genre"), label="PCA")
    assert np.abs(canvas.positions).max() == pytest.approx(1.0)
    distances = np.linalg.norm(COORDS[:, None] - COORDS[None], axis=2)
    scaled = np.linalg.norm(canvas.positions[:, None] - canvas.positions[None], axis=2)
    np.testing.assert_allclose(scaled, distances / 2, atol=1e-6)  # one scale for both axes: 4 map units -> 2
    assert canvas.view["bounds"] == pytest.approx((-1, -0.5, 1, 0.5))


def test_categories_get_a_code_each_in_numeric_order_with_their_counts():
    labels = ["10", "9", NOISE, "9", "10"]
    canvas = drawn(COORDS, categories(labels, title="cluster"), label="map")
    assert canvas.legend() == {"9": 2, "10": 2, NOISE: 1}
    for name in ("9", "10", NOISE):
        assert canvas.members(name).tolist() == [i for i, label in enumerate(labels) if label == name]
    palette = canvas.view["palette"]
    assert palette[canvas.codes[2]][0] == "#ced4da"  # noise is grey
    assert len({palette[canvas.codes[i]][0] for i in (0, 1)}) == 2
    assert canvas.view["dimmed"] == len(palette) - 1


def test_more_clusters_than_a_legend_can_show_keep_colour_for_the_largest_and_one_grey_group_for_the_rest():
    # 300 clusters, cluster i of i + 1 points, and noise: more categories than one byte of codes can number
    labels = [str(i) for i in range(300) for _ in range(i + 1)] + [NOISE] * 7
    coords = np.random.default_rng(0).normal(size=(len(labels), 2))
    canvas = drawn(coords, categories(labels, title="HDBSCAN cluster"), label="map")
    counts = Counter(label for label in labels if label != NOISE)
    largest = {name for name, _ in counts.most_common(MAX_CATEGORIES)}
    legend = canvas.legend()
    other = [name for name in legend if name.startswith("other")]
    assert len(other) == 1 and "270" in other[0]  # the grey group says how many clusters it holds
    assert set(legend) == largest | {NOISE, other[0]}
    assert legend[other[0]] == sum(n for name, n in counts.items() if name not in largest) and legend[NOISE] == 7
    for name in largest | {NOISE}:
        assert canvas.members(name).tolist() == [i for i, label in enumerate(labels) if label == name]
    palette = canvas.view["palette"]
    colours = [palette[canvas.codes[canvas.members(name)[0]]][0] for name in sorted(largest)]
    assert len(set(colours)) == MAX_CATEGORIES and set(colours) <= set(PALETTE)  # a colour of its own each
    assert palette[canvas.codes[canvas.members(other[0])[0]]][0] not in set(PALETTE) | {"#ced4da"}  # grey, not noise
    assert "270" in canvas_view(coords, categories(labels, title="HDBSCAN cluster"), label="map").note


def test_numbers_are_coded_on_the_scale_and_unmeasured_points_are_grey():
    values = np.array([0.5, np.nan, 1.0, np.nan, 0.0])
    canvas = drawn(COORDS, numbers(values, title="overlap"), label="map")
    expected = np.rint((values[[0, 2, 4]] - 0.0) / 1.0 * (SCALE_STEPS - 1))
    assert canvas.codes[[0, 2, 4]].tolist() == expected.tolist()
    assert canvas.legend() == {NOT_MEASURED: 2} and canvas.members(NOT_MEASURED).tolist() == [1, 3]
    assert canvas.view["legend"]["scale"]["min"] == "0" and canvas.view["legend"]["scale"]["max"] == "1"


def test_a_highlight_is_a_bitmask_and_leaves_the_points_and_colours_unchanged():
    colouring = categories("xyxyx", title="genre")
    plain = canvas_view(COORDS, colouring, label="map")
    mask = np.array([True, False, False, True, True])
    lit = drawn(COORDS, colouring, label="map", highlight=mask)
    assert lit.highlight.tolist() == mask.tolist() and lit.view["highlighted"] == 3
    assert lit.blobs["positions"] == plain.blobs["positions"] and lit.blobs["codes"] == plain.blobs["codes"]
    assert "highlight" not in plain.blobs and plain.view["highlight"] is None


def test_a_million_points_are_nine_megabytes_of_columns():
    n = 1_000_000
    rng = np.random.default_rng(0)
    view = canvas_view(rng.normal(size=(n, 2)), categories(rng.integers(0, 8, n).astype(str), title="c"),
                       label="map", highlight=rng.random(n) < 0.1)
    assert len(view.blobs["positions"]) == 32 + 8 * n and len(view.blobs["codes"]) == 32 + n
    assert len(view.blobs["highlight"]) == 32 + n // 8
    assert len(str(view.view)) < 10_000  # the view itself stays small at any size


def test_the_query_and_its_lines_end_on_its_neighbours_points():
    mark = QueryMark("a pet", (1.0, 1.5), [0, 4])
    canvas = drawn(COORDS, categories("xyxyx", title="genre"), label="map", query=mark)
    query = canvas.view["query"]
    np.testing.assert_allclose(query["neighbours"], canvas.positions[[0, 4]], atol=1e-6)
    assert (query["x"], query["y"]) == pytest.approx((-0.5, 0.25))
    assert query["text"] == "a pet"


def test_labels_are_placed_in_the_canvas_units_with_their_level():
    canvas = drawn(COORDS, categories("xyxyx", title="genre"), label="map",
                   labels=[(4.0, 2.0, "dog, car", 0, 2), (0.0, 0.0, "cat", 1, 1)])
    assert canvas.view["labels"] == [{"x": 1.0, "y": 0.5, "text": "dog, car", "level": 0, "size": 2},
                                     {"x": -1.0, "y": -0.5, "text": "cat", "level": 1, "size": 1}]


def test_hover_shows_the_number_the_colour_value_and_the_text_cut():
    assert hover_line(2, TEXTS[2], categories("xyxyx", title="genre")) == "#2 · genre: x\n<b>bold</b> & co"
    overlap = numbers(np.array([0.5, np.nan]), title="overlap")
    assert hover_line(1, "t", overlap) == "#1 · overlap: not measured\nt"
    assert hover_line(0, "w" * 600, overlap).endswith("w…") and len(hover_line(0, "w" * 600, overlap)) < 530


def test_points_shrink_as_they_multiply():
    sizes = [point_size(n) for n in (1_500, 100_000, 1_000_000)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] >= 4 and sizes[-1] >= 1.5


def test_a_few_highlighted_points_among_a_million_are_drawn_large_and_many_stay_small():
    assert highlight_size(1_000_000, 11) >= 4 * point_size(1_000_000)
    assert highlight_size(1_000_000, 500_000) == pytest.approx(1.6 * point_size(1_000_000))
    assert all(highlight_size(n, k) >= 1.6 * point_size(n) for n in (10, 1_500, 10**6) for k in (1, n // 2, n))


def test_a_label_column_with_thousands_of_values_does_not_fit_the_legend():
    assert fits_legend([str(i % MAX_CATEGORIES) for i in range(1000)])
    assert not fits_legend([str(i) for i in range(MAX_CATEGORIES + 1)])


def test_trust_histogram_counts_points_per_kept_share():
    overlap = np.array([1.0, 0.5, 0.5, 0.0, 1.0, 1.0])
    assert overlap_counts(overlap, k=2) == {"0/2": 1, "1/2": 2, "2/2": 3}
    fig = trust_figure(overlap, k=2)
    assert list(fig.data[0].y) == [1, 2, 3]
    assert fig.layout.title.text == "Neighbours kept: mean 67%"


def test_points_without_a_number_are_left_out_of_the_histogram():
    overlap = np.array([0.5, np.nan, 1.0, np.nan])
    assert sum(overlap_counts(overlap, k=2).values()) == 2
    assert trust_figure(overlap, k=2).layout.title.text == "Neighbours kept: mean 75%"
