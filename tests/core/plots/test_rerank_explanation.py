import numpy as np
import pytest

from core.plots.rerank_explanation import deletion_figure, token_grid


def test_the_grid_wraps_each_part_into_lines_and_colours_by_share():
    tokens = ["a", "man", "<b>", *[f"w{i}" for i in range(12)]]
    values = np.array([1.0, -1.0, 2.0, *np.linspace(-1, 1, 12)])
    groups = ["query"] * 3 + ["text"] * 12
    figure = token_grid(tokens, values, groups, per_line=5)
    heat = figure.data[0]
    assert list(heat.y) == ["query", "text · 1", "text · 2", "text · 3"]
    assert list(heat.text[0][:3]) == ["a", "man", "&lt;b&gt;"] and heat.text[0][3] == ""  # escaped, padded
    assert heat.z[0][3] is None
    shown = [value for row in heat.z for value in row if value is not None]
    assert len(shown) == len(tokens)
    assert sum(abs(v) for v in shown) == pytest.approx(1.0)
    assert heat.zmax == -heat.zmin == pytest.approx(max(abs(v) for v in shown))


def test_the_deletion_figure_draws_each_order_their_mean_and_the_attributed_curve():
    removed = np.arange(4)
    random = np.array([[0.9, 0.8, 0.6, 0.2], [0.9, 0.7, 0.5, 0.2]])
    figure = deletion_figure(removed, np.array([0.9, 0.4, 0.3, 0.2]), random, title="Removing <b>")
    names = [trace.name for trace in figure.data]
    assert names == ["each random order", "each random order", "random orders (mean)", "most attributed first"]
    assert list(figure.data[2].y) == pytest.approx([0.9, 0.75, 0.55, 0.2])
    assert figure.data[3].fill == "tonexty" and figure.layout.title.text == "Removing &lt;b&gt;"
