import numpy as np
import pytest

from core.plots.heatmap import (
    LABEL_CHARS,
    LABELS_UP_TO,
    TICK_PX,
    VALUE_CELL_PX,
    cell_px,
    difference_heatmap,
    similarity_heatmap,
)

TEXTS = ["alpha", "beta", "a rather long sentence that will not fit on an axis label"]
MATRIX = np.array([[1.0, 0.2, -0.3], [0.2, 1.0, 0.5], [-0.3, 0.5, 1.0]])


def test_cells_carry_the_matrix_values_and_full_texts_on_hover():
    figure = similarity_heatmap(MATRIX, TEXTS)
    trace = figure.data[0]
    np.testing.assert_array_equal(np.array(trace.z), MATRIX)
    assert trace.texttemplate == "%{z:.2f}"
    assert (trace.zmin, trace.zmax) == (-1.0, 1.0)
    assert trace.y[2].replace("<br>", " ") == "3. " + TEXTS[2]
    assert trace.x == trace.y and "%{y}" in trace.hovertemplate and "%{x}" in trace.hovertemplate
    labels = list(figure.layout.yaxis.ticktext)
    assert labels[:2] == ["1. alpha", "2. beta"]
    assert len(labels[2]) == len("3. ") + LABEL_CHARS and labels[2].endswith("…")
    assert list(figure.layout.xaxis.ticktext) == ["1", "2", "3"]


def test_compact_heatmap_labels_rows_by_number_only():
    figure = similarity_heatmap(MATRIX, TEXTS, compact=True, order=[1, 0, 2])
    assert list(figure.layout.yaxis.ticktext) == ["2", "1", "3"]


@pytest.mark.parametrize("n, columns, shown", [(9, 1, True), (9, 2, True), (20, 2, False), (9, 4, False)])
def test_cells_carry_values_only_where_a_value_can_be_read(n, columns, shown):
    figure = similarity_heatmap(np.eye(n), [f"text {i}" for i in range(n)], columns=columns, compact=columns == 4,
                                height=320 if columns == 4 else None)
    assert (figure.data[0].texttemplate is not None) == shown
    assert cell_px(n, height=figure.layout.height, columns=columns, compact=columns == 4) >= VALUE_CELL_PX or not shown


def test_row_labels_of_a_small_heatmap_of_many_texts_do_not_run_together():
    figure = similarity_heatmap(np.eye(60), [f"text {i}" for i in range(60)], compact=True, height=320)
    assert len(figure.layout.yaxis.ticktext) <= (320 - 60) // TICK_PX


def test_order_permutes_rows_columns_and_keeps_line_numbers():
    figure = similarity_heatmap(MATRIX, TEXTS, order=[2, 0, 1])
    np.testing.assert_array_equal(np.array(figure.data[0].z), MATRIX[np.ix_([2, 0, 1], [2, 0, 1])])
    assert list(figure.layout.yaxis.ticktext)[1:] == ["1. alpha", "2. beta"]


def test_fitted_range_and_euclidean_scale():
    fitted = similarity_heatmap(MATRIX, TEXTS, fixed_range=False).data[0]
    assert (fitted.zmin, fitted.zmax) == (-0.3, 1.0)
    distances = np.array([[0.0, 2.5], [2.5, 0.0]])
    euclid = similarity_heatmap(distances, ["a", "b"], metric="euclidean").data[0]
    assert (euclid.zmin, euclid.zmax) == (0.0, 2.5)


def test_two_hundred_texts_thin_labels_and_hide_values():
    n = 200
    rng = np.random.default_rng(0)
    matrix = rng.uniform(-1, 1, (n, n))
    figure = similarity_heatmap(matrix, [f"text number {i} " * 50 for i in range(n)])
    trace = figure.data[0]
    assert trace.texttemplate is None
    assert len(figure.layout.yaxis.ticktext) <= LABELS_UP_TO
    assert list(figure.layout.yaxis.tickvals)[:2] == [trace.y[0], trace.y[5]]
    assert list(figure.layout.xaxis.ticktext) == [str(i) for i in range(1, 200, 20)]
    assert len(trace.y) == 200 and trace.customdata is None and trace.text is None
    assert len(figure.to_json()) < 1_000_000
    assert figure.layout.height <= 900


def test_user_text_is_escaped_and_duplicates_stay_apart():
    figure = similarity_heatmap(np.ones((2, 2)), ["<b>bold?</b>", "<b>bold?</b>"])
    assert list(figure.layout.yaxis.ticktext) == ["1. &lt;b&gt;bold?&lt;/b&gt;", "2. &lt;b&gt;bold?&lt;/b&gt;"]
    assert figure.data[0].y == ("1. &lt;b&gt;bold?&lt;/b&gt;", "2. &lt;b&gt;bold?&lt;/b&gt;")


def test_single_text_is_one_cell():
    trace = similarity_heatmap(np.ones((1, 1)), ["only"]).data[0]
    assert np.array(trace.z).shape == (1, 1)


def test_difference_is_centred_on_zero():
    diff = np.array([[0.0, 0.4], [0.4, 0.0]]) - np.array([[0.0, 0.1], [0.1, 0.0]])
    trace = difference_heatmap(diff, ["a", "b"]).data[0]
    assert trace.zmin == -trace.zmax
    assert np.isclose(trace.zmax, 0.3)
